/**
 * Worker thread that computes patch plans (parse is done by the caller, reads and writes stay on
 * the caller's thread, where the host's file system lives). One job at a time, in order.
 */
import { parentPort } from 'node:worker_threads';
import { applyParsedPatch } from '../plan';
import { errorMessage } from '../../base';
import type { PlanRequest, PlanResponse } from './protocol';

const port = parentPort;
if (!port) throw new Error('patchWorker must run in a worker thread');

port.on('message', (req: PlanRequest) => {
  let response: PlanResponse;
  try {
    const plan = applyParsedPatch(req.job.parsed, req.job.files, req.job.options, req.job.extras);
    // The edit scripts only served the reverse patch, already built: not worth copying back.
    for (const c of plan.changes) delete c.script;
    response = { id: req.id, ok: true, plan };
  } catch (e) {
    response = { id: req.id, ok: false, message: errorMessage(e) };
  }
  port.postMessage(response);
});
