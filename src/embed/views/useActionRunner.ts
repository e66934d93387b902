import { useCallback, useState } from 'react';
import type { ActionOutcome } from './viewerActions';

/**
 * One viewer action at a time, for a view's buttons: `busy` while it runs (the buttons are disabled), and the
 * failure's message to show afterwards (cleared when the next one starts). `run` resolves to the outcome.
 */
export function useActionRunner() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const run = useCallback(async (work: () => Promise<ActionOutcome>): Promise<ActionOutcome> => {
    setBusy(true);
    setMessage(null);
    const outcome = await work();
    setBusy(false);
    if (!outcome.ok) setMessage(outcome.message);
    return outcome;
  }, []);
  return { busy, message, run };
}
