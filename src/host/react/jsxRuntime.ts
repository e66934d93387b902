/**
 * `react/jsx-runtime` as the SDK build sees it (aliased in vite.iframe-api.config.ts): the automatic JSX transform's
 * three exports made of `createElement`, which every React has, where `react/jsx-runtime` exists only from React
 * 16.14 and 17 on. So the built binding runs on every React of the package's peer range.
 */
import { createElement, Fragment, type ElementType, type Key, type ReactNode } from 'react';

export { Fragment };

type Props = { children?: unknown } & Record<string, unknown>;

const withKey = (props: Props, key: Key | undefined): Props => (key === undefined ? props : { ...props, key });

/** One child (or none): `children` stays in the props, as `createElement` would put it there. */
export function jsx(type: ElementType, props: Props, key?: Key): ReturnType<typeof createElement> {
  return createElement(type, withKey(props, key));
}

/** Static children (an array written out in the JSX): passed one by one, so React checks no keys among them. */
export function jsxs(type: ElementType, props: Props, key?: Key): ReturnType<typeof createElement> {
  const { children, ...rest } = props;
  return createElement(type, withKey(rest, key), ...(children as ReactNode[]));
}
