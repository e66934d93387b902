/** The global the ads host's ad-status script sets to `true` (shared by the script's server and the page's check). */
export const AD_STATUS_GLOBAL = 'vidframeAdStatusLoaded';
