import { Observable } from 'rxjs';
import type { ColorScheme } from './charts';

/**
 * The reader's colour scheme (`prefers-color-scheme`), now and whenever it changes. A window without `matchMedia`
 * reads as light.
 */
export function colorScheme$(target: Pick<Window, 'matchMedia'> | undefined = typeof window === 'undefined' ? undefined : window): Observable<ColorScheme> {
  // Hand-written: the edge to `matchMedia`, its listener removed on unsubscription.
  return new Observable<ColorScheme>((subscriber) => {
    const query = typeof target?.matchMedia === 'function' ? target.matchMedia('(prefers-color-scheme: dark)') : undefined;
    if (!query) {
      subscriber.next('light');
      return undefined;
    }
    const emit = () => subscriber.next(query.matches ? 'dark' : 'light');
    emit();
    query.addEventListener('change', emit);
    return () => query.removeEventListener('change', emit);
  });
}
