import { NEVER, throwError } from 'rxjs';
import { anonymousIdAllowed, consentFromPlayerVar, consentState } from '../../../streams/consent/consentState';
import type { TcfConsent } from '../../../streams/consent/tcfConsent';
import { createTestScheduler } from '../../helpers/testScheduler';

const tcf: Record<string, TcfConsent> = {
  n: { cmp: false },
  c: { cmp: true, gdprApplies: true, tcString: 'granted', eventStatus: 'useractioncomplete', consent: true },
  l: { cmp: true, gdprApplies: true, tcString: 'granted', eventStatus: 'tcloaded', consent: true },
  w: { cmp: true, gdprApplies: true, tcString: 'refused', eventStatus: 'useractioncomplete', consent: false },
};
const bools = { t: true, f: false };

describe('consentState', () => {
  it('follows the CMP live: refused, granted later, withdrawn — whatever the player variable says', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const answers = hot('-w--c-l--w', tcf);
      expectObservable(consentState('1', answers)).toBe('-f--t----f', bools);
      expectObservable(consentState(undefined, answers)).toBe('-f--t----f', bools);
    });
  });

  it('lets the consent player variable decide without a CMP', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      for (const granted of ['1', 'true', 'TRUE', ' 1 ']) expectObservable(consentState(granted, cold('(n|)', tcf))).toBe('(t|)', bools);
      for (const refused of ['0', 'false', '', 'yes', '2']) expectObservable(consentState(refused, cold('(n|)', tcf))).toBe('(f|)', bools);
    });
  });

  it('is false without a CMP and without the variable', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(consentState(undefined, cold('(n|)', tcf))).toBe('(f|)', bools);
    });
  });

  it('hands over to a CMP that answers after the no-answer timeout', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      expectObservable(consentState('1', hot('--n---w', tcf))).toBe('--t---f', bools);
      expectObservable(consentState(undefined, hot('--n---c', tcf))).toBe('--f---t', bools);
    });
  });

  it('emits nothing until the TCF source speaks, and counts a failing source as no CMP', () => {
    createTestScheduler().run(({ expectObservable }) => {
      expectObservable(consentState('1', NEVER)).toBe('');
      expectObservable(
        consentState(
          '1',
          throwError(() => new Error('boom')),
        ),
      ).toBe('(t|)', bools);
    });
  });

  it('reads the player variable', () => {
    expect(consentFromPlayerVar('1')).toBe(true);
    expect(consentFromPlayerVar('true')).toBe(true);
    expect(consentFromPlayerVar(undefined)).toBe(false);
    expect(consentFromPlayerVar('0')).toBe(false);
  });
});

describe('anonymousIdAllowed (spec §5)', () => {
  it('allows the anonymous id only with consent in the standard embed', () => {
    expect(anonymousIdAllowed({ consent: true, privateEmbed: false, educationEmbed: false })).toBe(true);
    expect(anonymousIdAllowed({ consent: false, privateEmbed: false, educationEmbed: false })).toBe(false);
  });

  it('never allows it in private or education mode, whatever the consent', () => {
    for (const consent of [true, false]) {
      expect(anonymousIdAllowed({ consent, privateEmbed: true, educationEmbed: false })).toBe(false);
      expect(anonymousIdAllowed({ consent, privateEmbed: false, educationEmbed: true })).toBe(false);
      expect(anonymousIdAllowed({ consent, privateEmbed: true, educationEmbed: true })).toBe(false);
    }
  });
});
