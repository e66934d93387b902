import { createHash } from 'node:crypto';
import { leadingZeroBits, type AttestationChallenge } from '../../server/tokens/attestationTokens';

/** What the attestation program does, in Node: the first counter whose hash has enough leading zero bits. */
export function solveAttestation({ challenge, difficulty }: AttestationChallenge): string {
  for (let counter = 0; ; counter++) {
    if (leadingZeroBits(createHash('sha256').update(`${challenge}:${counter}`).digest()) >= difficulty) return `${challenge}.${counter}`;
  }
}
