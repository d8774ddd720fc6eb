import { describe, expect, it } from 'vitest';
import { guessLanguage } from './language.js';

const words = (text: string) => text.split(/\s+/);

describe('guessLanguage', () => {
  it('names the language of a few lines of recognised text by its common words', () => {
    expect(guessLanguage(words('Alice was beginning to get very tired of sitting by her sister on the bank, and of having nothing to do'))).toMatchObject({
      code: 'eng',
      name: 'English',
      certainty: 'sure',
    });
    // Fraktur read with the English model: the long s comes out as f.
    expect(guessLanguage(words('Aufklärung ift der Ausgang des Menfchen aus feiner felbft verfchuldeten Unmündigkeit, fich feines Verftandes ohne Leitung eines anderen zu bedienen'))).toMatchObject({ code: 'deu', certainty: 'sure' });
    expect(guessLanguage(words('In nomine patris et filii et spiritus sancti amen. Hec est carta de foro quod dedit dominus rex omnibus hominibus'))).toMatchObject({ code: 'lat' });
    expect(guessLanguage(words('De raad van de stad kwam bijeen om de klachten van de burgers over de oude brug te horen'))).toMatchObject({ code: 'nld' });
  });

  it('names none for too few words, or for garbage read from handwriting', () => {
    expect(guessLanguage(words('the of and'))).toBeNull();
    expect(guessLanguage(words('Qa pla oy Lak pet Dah ERE fae Rath Bea Tis Seo Fan Sosa'))).toBeNull();
  });

  it('marks thin evidence as likely only', () => {
    expect(guessLanguage(words('Bürgerbegehren und Bürgerentscheid Situation Analysen Erfordernisse München der Stadt im Jahr'))).toMatchObject({ code: 'deu', certainty: 'likely' });
  });
});
