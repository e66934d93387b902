import type { StateDatabase } from '../db/openStateDatabase';
import type { UsedNonces } from '../tokens/attestationTokens';

/**
 * The attestation nonces accepted by any server on the state database: a claim is one insert that keeps the row already
 * there, so of two servers claiming one nonce at once exactly one is told it is new.
 */
export function usedNoncesIn(state: StateDatabase): UsedNonces {
  return {
    async claim(nonce, expiresAtMs) {
      const result = await state.db
        .insertInto('used_nonces')
        .values({ nonce, expires_at_ms: expiresAtMs })
        .onConflict((conflict) => conflict.column('nonce').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}

/** Deletes the nonces whose challenge expired before `at`; resolves with how many. */
export async function sweepUsedNonces(state: StateDatabase, at: number): Promise<number> {
  const result = await state.db.deleteFrom('used_nonces').where('expires_at_ms', '<=', at).executeTakeFirst();
  return Number(result.numDeletedRows);
}
