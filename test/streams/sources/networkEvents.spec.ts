import { type BrowserNetworkEvent, networkEvents$ } from '../../../streams/sources/networkEvents';

describe('networkEvents$', () => {
  it('names the online and offline events of the target and removes its listeners on unsubscribe', () => {
    const window = new EventTarget();
    const add = jest.spyOn(window, 'addEventListener');
    const remove = jest.spyOn(window, 'removeEventListener');
    const seen: BrowserNetworkEvent[] = [];
    const subscription = networkEvents$(window).subscribe((e) => seen.push(e));
    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('focus'));
    subscription.unsubscribe();
    window.dispatchEvent(new Event('offline'));
    expect(seen).toEqual(['offline', 'online']);
    expect(add).toHaveBeenCalledTimes(2);
    expect(remove).toHaveBeenCalledTimes(2);
  });
});
