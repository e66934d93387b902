import { TestScheduler } from 'rxjs/testing';

/** One TestScheduler per test, comparing frames with Jest's deep equality. */
export const createTestScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
