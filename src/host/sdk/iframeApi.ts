/**
 * The `/iframe_api` script: one classic script (built as an IIFE by `vite.iframe-api.config.ts`) that defines the
 * global `YT` for host pages, so `new YT.Player(…)` drives our embed. See {@link installIframeApi}.
 */
import { installIframeApi } from './installIframeApi';

const script = document.currentScript as HTMLScriptElement | null;
installIframeApi(window, { scriptSrc: script?.src || undefined });
