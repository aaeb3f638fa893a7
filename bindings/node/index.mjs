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
  env,
  sessionInit,
  sessionShow,
  sessionSetPolicy,
  sessionRun,
  sessionRunStart,
  sessionRunFinish,
  sessionCompare,
  sessionCleanup,
  sessionGate,
  sessionRender,
  sessionSync,
  acceptDiff,
  acceptTests,
  acceptReconfirm,
  acceptRecord,
  acceptVerdict,
  session,
  accept,
} = api;
export default api;
