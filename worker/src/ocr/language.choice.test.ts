import { describe, expect, it } from 'vitest';
import { detectLanguage, firstPassLanguages, mayBeOtherScript, retryLanguages } from './language.choice.js';

const all = ['eng', 'deu', 'fra', 'spa', 'por', 'ita', 'nld', 'jpn'];

describe('firstPassLanguages', () => {
  it.each([
    [{}, all, ['eng']],
    [{ script: 'Latin', currencyCode: 'EUR' }, all, ['eng']],
    [{ script: 'Japanese' }, all, ['jpn']],
    [{ script: 'Han' }, all, ['jpn']],
    [{ currencyCode: 'JPY' }, all, ['jpn']],
    [{ currencyCode: 'JPY' }, ['eng'], ['eng']],
    [{}, ['deu'], ['deu']],
  ])('%j with %j → %j', (evidence, installed, expected) => {
    expect(firstPassLanguages(evidence, installed)).toEqual(expected);
  });
});

describe('detectLanguage', () => {
  it.each([
    ['SUMME EUR 12,34\nMwSt 19% 1,97\nRückgeld 0,00', 'deu'],
    ['TOTAL TTC 12,34\nTVA 20% 2,06\nMerci de votre visite', 'fra'],
    ['IMPORTE 12,34\nIVA 21%\nEfectivo 20,00\nCambio 7,66', 'spa'],
    ['TOTAL 12,34\nDinheiro 20,00\nTroco 7,66\nContribuinte', 'por'],
    ['Subtotal 11.00\nTax 1.34\nTotal 12.34\nChange 7.66', 'eng'],
    ['TOTAL 12.34', undefined],
  ])('%j → %s', (text, expected) => {
    expect(detectLanguage(text)).toBe(expected);
  });
});

describe('retryLanguages', () => {
  const german = 'SUMME EUR 12,34\nMwSt 19% 1,97\nRückgeld 0,00';
  it('reads a page again in Japanese when English made little of it and OSD sees a Japanese script', () => {
    expect(retryLanguages({ languages: ['eng'], confidence: 0.3, text: 'ii1 ;: 7', script: 'Japanese' }, all)).toEqual(['jpn']);
    expect(retryLanguages({ languages: ['eng'], confidence: 0.3, text: 'ii1 ;: 7', script: 'Han' }, all)).toEqual(['jpn']);
  });
  it('keeps a poor English reading of a Latin page, or of one OSD could not place', () => {
    expect(retryLanguages({ languages: ['eng'], confidence: 0.3, text: 'T0TAL 1Z.3A', script: 'Latin' }, all)).toBeNull();
    expect(retryLanguages({ languages: ['eng'], confidence: 0.3, text: 'ii1 ;: 7' }, all)).toBeNull();
  });
  it('asks for the script only when the reading is poor, in a model other than Japanese, with Japanese installed', () => {
    expect(mayBeOtherScript({ languages: ['eng'], confidence: 0.3 }, all)).toBe(true);
    expect(mayBeOtherScript({ languages: ['eng'], confidence: 0.6 }, all)).toBe(false);
    expect(mayBeOtherScript({ languages: ['jpn'], confidence: 0.3 }, all)).toBe(false);
    expect(mayBeOtherScript({ languages: ['eng'], confidence: 0.3 }, ['eng', 'deu'])).toBe(false);
  });
  it('reads a page again in the language its words are in', () => {
    expect(retryLanguages({ languages: ['eng'], confidence: 0.7, text: german }, all)).toEqual(['deu']);
  });
  it('keeps a fair English reading of an English receipt', () => {
    expect(retryLanguages({ languages: ['eng'], confidence: 0.7, text: 'Subtotal 11.00\nTax 1.34\nTotal 12.34' }, all)).toBeNull();
  });
  it('does not retry in the language it read, or without the model', () => {
    expect(retryLanguages({ languages: ['jpn'], confidence: 0.3, text: '' }, all)).toBeNull();
    expect(retryLanguages({ languages: ['deu'], confidence: 0.7, text: german }, all)).toBeNull();
    expect(retryLanguages({ languages: ['eng'], confidence: 0.3, text: german }, ['eng'])).toBeNull();
  });
});
