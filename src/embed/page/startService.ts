/**
 * Starts one of the page's services on its own: one that throws is reported on the console and keeps neither the
 * others nor the viewer from anything.
 */
export function startService(name: string, start: () => void): void {
  try {
    start();
  } catch (error) {
    console.error(`[vidframe] ${name} could not start`, error);
  }
}
