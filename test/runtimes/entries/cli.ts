/** Deno and Bun: the conformance lines on standard output (test/runtimes/runtimes.test.ts). */
import { type ConformanceInput, conformance } from "../conformance.js";

declare const CONFORMANCE_INPUT: ConformanceInput;

console.log((await conformance(CONFORMANCE_INPUT)).join("\n"));
