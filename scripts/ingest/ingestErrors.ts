/**
 * What `npm run ingest` exits with, one code per kind of failure, so a script that calls it can tell a bad source from
 * a missing tool or an interrupted run. `--help` prints this table; docs/adaptive-streaming.md and the README name it.
 */
export const EXIT = {
  /** The entry is written, or was already there with the same bytes. */
  OK: 0,
  /** The command line is wrong (unknown option, missing file name, an id that is not 11 characters …). */
  BAD_ARGUMENTS: 2,
  /** ffmpeg or ffprobe is not installed (or not where `FFMPEG` / `FFPROBE` say). */
  TOOLS_MISSING: 3,
  /** The source file does not exist or cannot be read. */
  SOURCE_UNREADABLE: 4,
  /** The source is not a video at all: no media ffprobe can read, or a still image. */
  NOT_A_VIDEO: 5,
  /** The source holds audio and no video. */
  AUDIO_ONLY: 6,
  /** The source is empty: no bytes, or no duration. */
  ZERO_LENGTH: 7,
  /** The source is a damaged media file: its container or its video cannot be decoded. */
  CORRUPT: 8,
  /** The source is over a bound: too many bytes, too long, or too many pixels per frame. */
  TOO_LARGE: 9,
  /** ffmpeg failed or ran past its time limit while encoding. */
  ENCODE_FAILED: 10,
  /** The library folder cannot be written. */
  LIBRARY_ERROR: 11,
  /** Stopped by SIGINT (Ctrl-C) or SIGTERM: the temporary folder is removed and no entry is written. */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the command reports as one line and exits with `code`. */
export class IngestError extends Error {
  constructor(
    readonly code: ExitCode,
    message: string,
  ) {
    super(message);
    this.name = 'IngestError';
  }
}

/** The exit codes as `--help` prints them. */
export const EXIT_CODE_HELP = [
  `  ${EXIT.OK}    the entry is written, or it was already there unchanged`,
  `  ${EXIT.BAD_ARGUMENTS}    bad arguments`,
  `  ${EXIT.TOOLS_MISSING}    ffmpeg or ffprobe missing (Debian: apt-get install ffmpeg)`,
  `  ${EXIT.SOURCE_UNREADABLE}    the source file does not exist or cannot be read`,
  `  ${EXIT.NOT_A_VIDEO}    not a video (no media in it, or a still image)`,
  `  ${EXIT.AUDIO_ONLY}    audio only: no video stream`,
  `  ${EXIT.ZERO_LENGTH}    zero length: no bytes or no duration`,
  `  ${EXIT.CORRUPT}    corrupt: a damaged container, or video that does not decode`,
  `  ${EXIT.TOO_LARGE}    over a bound: bytes, duration or frame size (see the limits above)`,
  `  ${EXIT.ENCODE_FAILED}   ffmpeg failed or timed out while encoding`,
  `  ${EXIT.LIBRARY_ERROR}   the library folder cannot be written`,
  `  ${EXIT.INTERRUPTED}  interrupted (Ctrl-C): nothing is left behind`,
].join('\n');
