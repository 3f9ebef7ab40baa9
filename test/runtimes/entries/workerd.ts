/** workerd: a module worker that answers every request with the conformance lines. */
import { type ConformanceInput, conformance } from "../conformance.js";

declare const CONFORMANCE_INPUT: ConformanceInput;

export default {
  async fetch(): Promise<Response> {
    try {
      return new Response((await conformance(CONFORMANCE_INPUT)).join("\n"));
    } catch (e) {
      return new Response(`error: ${e instanceof Error ? e.stack : String(e)}`, { status: 500 });
    }
  },
};
