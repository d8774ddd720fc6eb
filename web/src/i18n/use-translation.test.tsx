import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { Trans } from './trans';
import { i18n, type Texts } from './translations';
import { useTranslation } from './use-translation';

function Greeting({ ns }: { ns: string }) {
  const { t, i18n: translations } = useTranslation([ns, 'common']);
  return (
    <h1 lang={translations.language}>
      <Trans t={t} i18nKey="greeting" values={{ name: 'Ada' }} components={{ jobs: <a href="/pim/jobs" /> }} />
    </h1>
  );
}

function renderGreeting(ns: string) {
  render(
    <Suspense fallback="Loading">
      <Greeting ns={ns} />
    </Suspense>,
  );
}

const heading = () => screen.getByRole('heading');

describe('useTranslation', () => {
  it('renders the text with its elements, and again in the language switched to', async () => {
    i18n.addResourceBundle('en', 'settings', { greeting: 'Hello {{name}}, see <jobs>Jobs</jobs>.' });
    i18n.addResourceBundle('nl', 'settings', { greeting: 'Hallo {{name}}, zie <jobs>Jobs</jobs>.' });
    renderGreeting('settings');
    expect(heading().textContent).toBe('Hello Ada, see Jobs.');
    expect(screen.getByRole('link', { name: 'Jobs' }).getAttribute('href')).toBe('/pim/jobs');
    await act(() => i18n.changeLanguage('nl'));
    expect(heading().textContent).toBe('Hallo Ada, zie Jobs.');
    expect(heading().getAttribute('lang')).toBe('nl');
    await act(() => i18n.changeLanguage('en'));
  });

  // Last: from here on the shared translations load what they lack.
  it('suspends until a namespace nobody asked for before has come', async () => {
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    i18n.start('en', async (_language, ns): Promise<Texts | undefined> => {
      await arrived;
      return ns === 'fonts' ? { greeting: 'Fonts for {{name}}' } : undefined;
    });
    renderGreeting('fonts');
    expect(screen.getByText('Loading')).toBeTruthy();
    await act(async () => arrive());
    expect((await screen.findByRole('heading')).textContent).toBe('Fonts for Ada');
  });
});
