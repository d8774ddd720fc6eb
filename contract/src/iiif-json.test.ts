import { describe, expect, it } from 'vitest';
import { imageOfBody, isWebAddress, textOf } from './iiif-json.js';

describe('IIIF JSON', () => {
  it('reads labels and values as text: language maps preferring English, then no language, then any; lists; @value; HTML', () => {
    expect(textOf({ fr: ['Livre'], en: ['Book'] })).toBe('Book');
    expect(textOf({ de: ['Buch'], none: ['Liber'] })).toBe('Liber');
    expect(textOf({ de: ['Buch', 'Band'] })).toBe('Buch; Band');
    expect(textOf({ '@value': 'Brief', '@language': 'nl' })).toBe('Brief');
    expect(textOf('<p>One<br/>two</p><p>three &#x2014; &lt;four&gt;</p>')).toBe('One\ntwo\nthree — <four>');
    expect(textOf(undefined)).toBe('');
  });

  it('finds the image of an annotation body: itself, in a list, the first of a Choice, the source of a SpecificResource', () => {
    const image = { id: 'https://example.org/p1.jpg', type: 'Image' };
    expect(imageOfBody(image)).toBe(image);
    expect(imageOfBody([{ type: 'TextualBody' }, image])).toBe(image);
    expect(imageOfBody({ type: 'Choice', items: [{ type: 'Sound' }, image] })).toBe(image);
    expect(imageOfBody({ type: 'SpecificResource', source: image })).toBe(image);
    expect(imageOfBody({ type: 'TextualBody', value: 'no image' })).toBeUndefined();
  });

  it('takes only absolute http(s) addresses', () => {
    expect(isWebAddress('https://example.org/iiif')).toBe(true);
    expect(isWebAddress('urn:x-image:1')).toBe(false);
    expect(isWebAddress('/relative')).toBe(false);
    expect(isWebAddress(undefined)).toBe(false);
  });
});
