// The PDF renderer of the worker threads with a gate before each page, for tests that need a page
// to be rendering in its thread while they look at the rest of the server.
import { renderPdfPage as render } from '../modules/uploads/pdf-render.js';

export { countPdfPages } from '../modules/uploads/pdf-render.js';

/** The channel the gate listens on: the thread posts 'rendering page N', the test answers 'go on'. */
export const PDF_GATE_CHANNEL = 'pim-test-pdf-gate';

export async function renderPdfPage(...args: Parameters<typeof render>): Promise<ReturnType<typeof render>> {
  const gate = new BroadcastChannel(PDF_GATE_CHANNEL);
  try {
    const opened = new Promise<void>((resolve) => {
      gate.onmessage = (event) => {
        if ((event as MessageEvent).data === 'go on') resolve();
      };
    });
    gate.postMessage(`rendering page ${args[1] + 1}`);
    await opened;
  } finally {
    gate.close();
  }
  return render(...args);
}
