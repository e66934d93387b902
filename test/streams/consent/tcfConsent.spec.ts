import { TCModel, TCString } from '@iabtcf/core';
import { createDemoGvl, encodeDemoTcString } from '../../../streams/consent/encodeTcString';
import { TCF_ANSWER_TIMEOUT_MS } from '../../../streams/timing';
import {
  findTcfLocatorFrame,
  type TcfConsent,
  tcfConsent$ as tcfConsentWith,
  type TcfConsentOptions,
  type TcfWindowLike,
} from '../../../streams/consent/tcfConsent';
import { purposeOneConsent } from '../../../streams/consent/purposeOneConsent';
import { createTestScheduler } from '../../helpers/testScheduler';
import { crossOrigin, fakeCmp, FakeWindow, frameChain, withLocator, type TcDataLike } from './fakeFrames';
import { firstValueFrom, startWith, Subject, take, toArray } from 'rxjs';

// The browser's window fits the structural type (checked by the compiler).
const browserWindowFits: Window extends TcfWindowLike ? true : false = true;

const GRANTED = encodeDemoTcString({ purposeOne: true });
const REFUSED = encodeDemoTcString({ purposeOne: false });
/** Purposes 2–4 but not purpose 1: no consent to storage on the device. */
const OTHER_PURPOSES = (() => {
  const model = new TCModel(createDemoGvl());
  model.cmpId = 10;
  model.cmpVersion = 3;
  model.purposeConsents.set([2, 3, 4]);
  return TCString.encode(model);
})();

/** The marble specs decode synchronously (the page loads the decoder on first use: see the last describe). */
const tcfConsent$ = (win: TcfWindowLike, options: TcfConsentOptions = {}) => tcfConsentWith(win, { purposeOne: purposeOneConsent, ...options });

const noCmp: TcfConsent = { cmp: false };
const decided = (eventStatus: 'tcloaded' | 'useractioncomplete', tcString: string, consent: boolean, gdprApplies: boolean | undefined = true): TcfConsent => ({
  cmp: true,
  gdprApplies,
  tcString,
  eventStatus,
  consent,
});

/** embed framed by the CMP's page (top), with the locator on top. */
function setUp() {
  const [top, embed] = frameChain('top', 'embed');
  withLocator(top);
  return { top, embed };
}

describe('purposeOneConsent', () => {
  it('decodes consent to purpose 1 with @iabtcf/core', () => {
    expect(purposeOneConsent(GRANTED)).toBe(true);
    expect(purposeOneConsent(REFUSED)).toBe(false);
    expect(purposeOneConsent(OTHER_PURPOSES)).toBe(false);
  });

  it.each(['', 'garbage', '!!!', 'CAAAAAA', GRANTED.slice(0, 10)])('is false for the malformed string %j', (text) => {
    expect(purposeOneConsent(text)).toBe(false);
  });
});

describe('findTcfLocatorFrame', () => {
  it('walks up past a cross-origin frame to the ancestor holding __tcfapiLocator', () => {
    const [top, middle, embed] = frameChain('top', 'middle', 'embed');
    withLocator(top);
    crossOrigin(middle);
    expect(findTcfLocatorFrame(embed)).toBe(top);
  });

  it('takes the nearest ancestor with a locator', () => {
    const [top, middle, embed] = frameChain('top', 'middle', 'embed');
    withLocator(top);
    withLocator(middle);
    expect(findTcfLocatorFrame(embed)).toBe(middle);
  });

  it('stops at top, and finds nothing in an unframed page without a locator', () => {
    const [top, embed] = frameChain('top', 'embed');
    const above = withLocator(new FakeWindow('above'));
    top.parent = above; // not an ancestor the page can reach as top
    expect(findTcfLocatorFrame(embed)).toBeUndefined();
    expect(findTcfLocatorFrame(new FakeWindow('alone'))).toBeUndefined();
  });

  it('survives a parent that throws and a parent-less frame', () => {
    const embed = new FakeWindow('embed');
    embed.top = null;
    Object.defineProperty(embed, 'parent', {
      get() {
        throw new Error('no');
      },
    });
    expect(findTcfLocatorFrame(embed)).toBeUndefined();
    const orphan = new FakeWindow('orphan');
    orphan.parent = null;
    orphan.top = null;
    expect(findTcfLocatorFrame(orphan)).toBeUndefined();
  });
});

describe('tcfConsent$', () => {
  it('fits the browser window and waits 5 s for an answer by default', () => {
    expect(browserWindowFits).toBe(true);
    expect(TCF_ANSWER_TIMEOUT_MS).toBe(5_000);
  });

  it('says there is no CMP, once, and completes, when no frame holds the locator', () => {
    createTestScheduler().run(({ expectObservable }) => {
      const [, embed] = frameChain('top', 'embed');
      expectObservable(tcfConsent$(embed)).toBe('(x|)', { x: noCmp });
      expect(embed.listeners.size).toBe(0);
    });
  });

  it('posts addEventListener to the CMP frame with target origin *', () => {
    const { top, embed } = setUp();
    const subscription = tcfConsent$(embed).subscribe();
    expect(top.posted).toEqual([
      { message: { __tcfapiCall: { command: 'addEventListener', version: 2, callId: expect.any(String), parameter: null } }, targetOrigin: '*' },
    ]);
    expect(embed.listeners.size).toBe(1);
    subscription.unsubscribe();
  });

  it('emits each decision (tcloaded, useractioncomplete) with purpose 1 consent and skips cmpuishown', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { top, embed } = setUp();
      fakeCmp(
        top,
        embed,
        cold('-s--l---u---w', {
          s: { eventStatus: 'cmpuishown', tcString: REFUSED },
          l: { eventStatus: 'tcloaded', tcString: REFUSED },
          u: { eventStatus: 'useractioncomplete', tcString: GRANTED },
          w: { eventStatus: 'useractioncomplete', tcString: OTHER_PURPOSES },
        }),
      );
      expectObservable(tcfConsent$(embed), '^ 100ms !').toBe('----l---u---w', {
        l: decided('tcloaded', REFUSED, false),
        u: decided('useractioncomplete', GRANTED, true),
        w: decided('useractioncomplete', OTHER_PURPOSES, false),
      });
    });
  });

  it('counts consent as given where GDPR does not apply, and a malformed string as no consent', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { top, embed } = setUp();
      fakeCmp(
        top,
        embed,
        cold('-a-b-c', {
          a: { eventStatus: 'tcloaded', tcString: '', gdprApplies: false },
          b: { eventStatus: 'tcloaded', tcString: 'not-a-tc-string', gdprApplies: true },
          c: { eventStatus: 'useractioncomplete', tcString: GRANTED, gdprApplies: undefined },
        }),
      );
      expectObservable(tcfConsent$(embed), '^ 100ms !').toBe('-a-b-c', {
        a: decided('tcloaded', '', true, false),
        b: decided('tcloaded', 'not-a-tc-string', false),
        c: { ...decided('useractioncomplete', GRANTED, true), gdprApplies: undefined },
      });
    });
  });

  it('reads answers sent as JSON strings', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { top, embed } = setUp();
      fakeCmp(top, embed, cold('--a', { a: { eventStatus: 'tcloaded', tcString: GRANTED } }), { asJson: true });
      expectObservable(tcfConsent$(embed), '^ 100ms !').toBe('--a', { a: decided('tcloaded', GRANTED, true) });
    });
  });

  it('ignores messages from other frames, for other calls, unsuccessful answers and anything else', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { top, embed } = setUp();
      const stranger = new FakeWindow('stranger');
      fakeCmp(top, embed, cold('-------f-a', { f: 'fail', a: { eventStatus: 'tcloaded', tcString: GRANTED } }));
      const answer = (callId: unknown) => ({ __tcfapiReturn: { returnValue: { eventStatus: 'tcloaded', tcString: GRANTED }, success: true, callId } });
      cold('-abcdef').subscribe((k) => {
        const callId = (top.posted[0].message as { __tcfapiCall: { callId: string } }).__tcfapiCall.callId;
        if (k === 'a') embed.dispatch(answer(callId), stranger); // right call, wrong source
        if (k === 'b') embed.dispatch(answer('someone-else'), top); // right source, another call
        if (k === 'c') embed.dispatch('{not json', top);
        if (k === 'd') embed.dispatch({ __tcfapiReturn: null }, top);
        if (k === 'e') embed.dispatch({ __tcfapiReturn: { callId, success: true, returnValue: null } }, top);
        if (k === 'f') embed.dispatch(null, top);
      });
      expectObservable(tcfConsent$(embed), '^ 100ms !').toBe('---------a', { a: decided('tcloaded', GRANTED, true) });
    });
  });

  it('says there is no CMP when none answers within 5 s, and still takes a late answer (production default)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { top, embed } = setUp();
      fakeCmp(top, embed, cold('6000ms a', { a: { eventStatus: 'tcloaded', tcString: GRANTED } }));
      // x at exactly 5 000; then from frame 5 001, 999 ms brings us to the answer at 6 000.
      expectObservable(tcfConsent$(embed), '^ 7000ms !').toBe('5000ms x 999ms a', { x: noCmp, a: decided('tcloaded', GRANTED, true) });
    });
  });

  it('has not given up 1 ms before the timeout (production default)', () => {
    createTestScheduler().run(({ expectObservable }) => {
      const { embed } = setUp();
      expectObservable(tcfConsent$(embed), '^ 4998ms !').toBe('');
    });
  });

  it('stops the no-answer clock on any answer, cmpuishown included', () => {
    createTestScheduler().run(({ cold, time, expectObservable }) => {
      const { top, embed } = setUp();
      fakeCmp(top, embed, cold('--s', { s: { eventStatus: 'cmpuishown' } }));
      expectObservable(tcfConsent$(embed, { answerTimeoutMs: time('-----|') }), '^ 100ms !').toBe('');
    });
  });

  it('uses a given timeout and scheduler', () => {
    createTestScheduler().run(({ time, expectObservable }) => {
      const { embed } = setUp();
      expectObservable(tcfConsent$(embed, { answerTimeoutMs: time('---|') }), '^ 10ms !').toBe('---x', { x: noCmp });
    });
  });

  it('removes its listener at the CMP with the listenerId it got, and its message listener, on unsubscribe', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const { top, embed } = setUp();
      fakeCmp(top, embed, cold('-a', { a: { eventStatus: 'tcloaded', tcString: GRANTED, listenerId: 42 } }));
      const subscription = tcfConsent$(embed).subscribe();
      flush();
      subscription.unsubscribe();
      expect(embed.listeners.size).toBe(0);
      const [add, remove] = top.posted.map((p) => p.message as { __tcfapiCall: { callId: string } });
      expect(remove).toEqual({ __tcfapiCall: { command: 'removeEventListener', version: 2, callId: expect.any(String), parameter: 42 } });
      expect(remove.__tcfapiCall.callId).not.toBe(add.__tcfapiCall.callId);
      expect(top.posted[1].targetOrigin).toBe('*');
    });
  });

  it('posts no removeEventListener when the CMP never gave a listenerId', () => {
    const { top, embed } = setUp();
    tcfConsent$(embed).subscribe().unsubscribe();
    expect(top.posted).toHaveLength(1);
    expect(embed.listeners.size).toBe(0);
  });

  it('uses a new callId for each subscription', () => {
    const { top, embed } = setUp();
    tcfConsent$(embed).subscribe().unsubscribe();
    tcfConsent$(embed).subscribe().unsubscribe();
    const ids = top.posted.map((p) => (p.message as { __tcfapiCall: { callId: string } }).__tcfapiCall.callId);
    expect(new Set(ids).size).toBe(2);
  });

  it('falls back to the clock when posting to the CMP frame throws', () => {
    createTestScheduler().run(({ time, expectObservable }) => {
      const { top, embed } = setUp();
      top.onPost = () => {
        throw new Error('detached');
      };
      expectObservable(tcfConsent$(embed, { answerTimeoutMs: time('--|') }), '^ 10ms !').toBe('--x', { x: noCmp });
    });
  });
});

describe('tcfConsent$ with the decoder loaded on first use (the page, issue 15)', () => {
  const answersOf = (events: TcDataLike[]) => new Subject<TcDataLike>().pipe(startWith(...events));

  it('decodes with @iabtcf/core loaded on demand, and keeps the CMP order when a later answer needs no decoding', async () => {
    const { top, embed } = setUp();
    fakeCmp(
      top,
      embed,
      answersOf([
        { eventStatus: 'tcloaded', tcString: GRANTED },
        { eventStatus: 'useractioncomplete', tcString: REFUSED, gdprApplies: false },
        { eventStatus: 'useractioncomplete', tcString: REFUSED },
      ]),
    );
    const seen = await firstValueFrom(tcfConsentWith(embed).pipe(take(3), toArray()));
    expect(seen).toEqual([
      decided('tcloaded', GRANTED, true),
      decided('useractioncomplete', REFUSED, true, false),
      decided('useractioncomplete', REFUSED, false),
    ]);
  });

  it('a decoder that fails to load is no consent', async () => {
    const { top, embed } = setUp();
    fakeCmp(top, embed, answersOf([{ eventStatus: 'tcloaded', tcString: GRANTED }]));
    const failing = await firstValueFrom(tcfConsentWith(embed, { purposeOne: () => Promise.reject(new Error('chunk failed to load')) }));
    expect(failing).toEqual(decided('tcloaded', GRANTED, false));
  });
});
