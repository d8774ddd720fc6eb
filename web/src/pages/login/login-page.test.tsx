import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { loginCheck } from '../../session/login-check';
import { renderApp, stubFetch } from '../../test/render';

function loginButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: 'Login' });
}

/** The login page, once its code has loaded. */
async function openLoginPage() {
  renderApp('/login');
  await screen.findByRole('button', { name: 'Login' });
}

describe('/pim/login', () => {
  it('tells users to use the login at the top', async () => {
    renderApp('/login');
    expect(await screen.findByText('Please use the Login link at the top of the page to sign in.')).toBeTruthy();
  });

  it('enables Login only when both email and password are filled in, and submitting does nothing', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => new Response(null, { status: 500 }));
    await openLoginPage();
    expect(loginButton().disabled).toBe(true);

    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    expect(loginButton().disabled).toBe(true);

    await user.type(screen.getByLabelText('Password'), 'secret');
    expect(loginButton().disabled).toBe(false);

    await user.click(loginButton());
    expect(fetchMock).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Email'));
    expect(loginButton().disabled).toBe(true);
  });
});

describe('/pim/logingoogle', () => {
  it('has a "<provider> login" button going to the provider sign-in and back to the start page', async () => {
    renderApp('/logingoogle');
    const button = await screen.findByRole('link', { name: 'Google login' });
    expect(button.getAttribute('href')).toBe(
      `/api/google/login?returnURL=${encodeURIComponent('http://localhost:3000/pim/')}&redirect=${encodeURIComponent('/pim/')}&loginCheck=${loginCheck()}`,
    );
  });
});
