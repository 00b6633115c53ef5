/**
 * A command could not do what it was asked, for a reason outside the command line and settings (the
 * service it talks to is gone, or could not answer): one line on stderr and exit code 1. Kept in a
 * module of its own, so that `ledgerhook` loads a command's code only when that command runs.
 */
export class CommandFailure extends Error {}
