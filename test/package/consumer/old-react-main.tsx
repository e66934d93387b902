/**
 * Built by Vite in a scratch app with an older React (16.8, 17, 18) and run under jsdom by old-react-run.mjs: renders
 * the react-youtube example and a `YouTube` held by a ref with the legacy `ReactDOM.render` (every React up to 18), and
 * reports what it sees. Not type-checked: the older `@types/react-dom` is not installed.
 */
import { createRef, version } from 'react';
import { render, unmountComponentAtNode } from 'react-dom';
import YouTube from 'vidframe/react';
import Example from './react-youtube-example';

const frames = () => [...document.querySelectorAll('iframe')];

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!test()) throw new Error(`timed out; the document: ${document.body.innerHTML}`);
}

async function check() {
  const root = document.getElementById('root')!;
  const ref = createRef<YouTube>();
  const opts = { host: 'https://embed.example', width: 320, height: 180 };
  render(
    <div>
      <Example host="https://embed.example" />
      <YouTube ref={ref} videoId="VFcitylight" id="second" className="second-box" opts={opts} />
    </div>,
    root,
  );
  await until(() => frames().length === 2 && ref.current?.getInternalPlayer() != null);
  const internal = ref.current!.getInternalPlayer()!;
  const volume = internal.getVolume();
  const iframe = await internal.getIframe();
  const seen = {
    react: version,
    iframes: frames().map((f) => `${new URL(f.src).origin}${new URL(f.src).pathname} ${f.getAttribute('width')}x${f.getAttribute('height')}`),
    refIframeIsSecond: iframe === document.getElementById('second'),
    containerClass: document.querySelector('.second-box')?.contains(iframe) ?? false,
    methodsReturnPromises: volume instanceof Promise,
    internalPlayerField: ref.current!.internalPlayer === internal,
    playerState: YouTube.PlayerState,
  };
  unmountComponentAtNode(root);
  return { ...seen, afterUnmount: { iframes: frames().length, ref: ref.current } };
}

(window as unknown as { vidframeCheck: Promise<unknown> }).vidframeCheck = check();
