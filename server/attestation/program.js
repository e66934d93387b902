/*
 * VidFrame's attestation program, served at /attestation/program.js and loaded by the embed's attestation
 * loader (src/embed/services/attestation.ts). It sets window.vidframeAttestationProgram = { version, start() }; start() checks
 * that the browser can run it and returns { solve(challenge) }, which turns one server challenge
 * ({ challenge, difficulty, expiresAtMs } from POST /attestation/challenge) into one response token:
 * "{challenge}.{counter}", the first counter for which SHA-256("{challenge}:{counter}") starts with `difficulty` zero
 * bits. The server (server/tokens/attestationTokens.ts) checks the signature, the expiry, the proof and single use.
 *
 * Plain ES2017 on purpose: no build step, nothing the page's bundle must share, and readable as served.
 */
(function () {
  'use strict';

  /** Hashes computed together: crypto.subtle is asynchronous, one await per hash would be slower. */
  var BATCH = 64;
  /** Give up after this many counters: far beyond what the difficulties the server issues need. */
  var MAX_COUNTER = 67108864;
  /** The strongest difficulty the server may ask for (as the verifier). */
  var MAX_DIFFICULTY_BITS = 24;

  function leadingZeroBits(bytes) {
    var bits = 0;
    for (var i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0) {
        bits += 8;
        continue;
      }
      return bits + Math.clz32(bytes[i]) - 24;
    }
    return bits;
  }

  function solve(challenge) {
    if (
      !challenge ||
      typeof challenge.challenge !== 'string' ||
      typeof challenge.difficulty !== 'number' ||
      !(challenge.difficulty >= 1 && challenge.difficulty <= MAX_DIFFICULTY_BITS)
    ) {
      return Promise.reject(new Error('The attestation challenge is malformed'));
    }
    var subtle = window.crypto.subtle;
    var encoder = new TextEncoder();
    var prefix = challenge.challenge + ':';
    // Counters are written by JSON.stringify, not `'' + n`: thousands of `'' + n` would grow V8's number-to-text cache
    // to 64 KB for the page's life (streams/shared/numberText.ts).
    function batch(from) {
      var digests = [];
      for (var i = 0; i < BATCH; i++) digests.push(subtle.digest('SHA-256', encoder.encode(prefix + JSON.stringify(from + i))));
      return Promise.all(digests).then(function (results) {
        for (var j = 0; j < results.length; j++) {
          if (leadingZeroBits(new Uint8Array(results[j])) >= challenge.difficulty) return challenge.challenge + '.' + JSON.stringify(from + j);
        }
        if (from + BATCH >= MAX_COUNTER) throw new Error('The attestation program found no proof of work');
        return batch(from + BATCH);
      });
    }
    return batch(0);
  }

  window.vidframeAttestationProgram = {
    version: 1,
    start: function () {
      // crypto.subtle exists only in secure contexts (https, localhost): without it there is no program to run.
      if (!window.crypto || !window.crypto.subtle || typeof TextEncoder !== 'function') {
        throw new Error('The attestation program needs crypto.subtle (a secure context)');
      }
      return { solve: solve };
    },
  };
})();
