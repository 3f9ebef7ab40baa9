/// <reference types="node" />
/** Output of one command: results on stdout, messages on stderr prefixed with the command. */

export interface Context {
  /** "tag", "check", …; "" for keyed itself. */
  readonly command: string;
  /** One line on stdout. */
  print(line: string): void;
  /** One line on stderr: "keyed <command>: message". */
  warn(message: string): void;
}

export function prefix(command: string): string {
  return command === "" ? "keyed" : `keyed ${command}`;
}

export function createContext(command: string): Context {
  return {
    command,
    print: (line) => {
      process.stdout.write(`${line}\n`);
    },
    warn: (message) => {
      process.stderr.write(`${prefix(command)}: ${message}\n`);
    },
  };
}
