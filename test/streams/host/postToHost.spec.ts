import { from, Subject } from 'rxjs';
import { postToHost } from '../../../streams/host/postToHost.sink';
import type { HostAction } from '../../../streams/host/hostTypes';
import { hostMessages$ } from '../../../streams/sources/hostMessages';
import type { PlayerCommand } from '../../../streams/player/types';

const postAction = (window: unknown, to: 'host' | 'parent' = 'host'): HostAction => ({
  type: 'post',
  to,
  window,
  targetOrigin: 'https://h.example',
  message: { event: 'onReady', info: null, channel: 'widget', id: 1 },
  coalesce: false,
});

describe('postToHost (sink)', () => {
  it('posts JSON strings to the host window or the parent, and runs commands then reports them applied, in order', () => {
    const log: string[] = [];
    const hostWin = { postMessage: (m: string, o: string) => log.push(`host ${m} ${o}`) };
    const parent = { postMessage: (m: string, o: string) => log.push(`parent ${m} ${o}`) };
    const cmd: PlayerCommand = { type: 'play' };
    postToHost(from<HostAction[]>([postAction(hostWin), { type: 'command', command: cmd }, postAction(null, 'parent')]), {
      parent,
      execute: (c) => log.push(`execute ${c.type}`),
      applied: (c) => log.push(`applied ${c.type}`),
    });
    expect(log).toEqual([
      'host {"event":"onReady","info":null,"channel":"widget","id":1} https://h.example',
      'execute play',
      'applied play',
      'parent {"event":"onReady","info":null,"channel":"widget","id":1} https://h.example',
    ]);
  });

  it('a throwing window or command is reported and never stops the next actions', () => {
    const failures: unknown[] = [];
    const posted: string[] = [];
    const actions = new Subject<HostAction>();
    postToHost(actions, {
      parent: null,
      execute: () => {
        throw new Error('player bug');
      },
      onFailure: (e) => failures.push((e as Error).message),
    });
    actions.next(
      postAction({
        postMessage: () => {
          throw new Error('closed');
        },
      }),
    );
    actions.next({ type: 'command', command: { type: 'pause' } });
    actions.next(postAction({ notAWindow: true }));
    actions.next(postAction({ postMessage: (m: string) => posted.push(m) }));
    expect(failures).toEqual(['closed', 'player bug']);
    expect(posted).toHaveLength(1);
  });
});

describe('hostMessages$ (source)', () => {
  it('reads data, origin and source from message events of the target it is given, and stops listening on unsubscribe', () => {
    const target = new EventTarget();
    const seen: unknown[] = [];
    const sub = hostMessages$(target).subscribe((m) => seen.push(m));
    const win = {};
    const event = Object.assign(new Event('message'), { data: '{"event":"listening"}', origin: 'https://h.example', source: win });
    target.dispatchEvent(event);
    target.dispatchEvent(new Event('message'));
    sub.unsubscribe();
    target.dispatchEvent(event);
    expect(seen).toEqual([
      { data: '{"event":"listening"}', origin: 'https://h.example', source: win },
      { data: undefined, origin: '', source: null },
    ]);
  });
});
