// ESM entry of @probity/node: the CommonJS module, re-exported by name.
import api from "./index.js";

export const {
  ProbityError,
  reasonCodes,
  place,
  strip,
  verify,
  resolve,
  drift,
  sessionInit,
  sessionRun,
  sessionCompare,
  sessionCleanup,
  sessionGate,
  sessionRender,
  sessionSync,
  session,
} = api;
export default api;
