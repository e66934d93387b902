/** Video ids are 11 characters of `[A-Za-z0-9_-]` (host-protocol §2); a host checks before building a URL. The rule is the embed's own. */
export { isValidVideoId } from '../../../streams/config/playerConfig';
