// A client in a process of its own, as a browser is: one keep-alive connection, one call at a time,
// a pause between calls. Its clock runs while the server's event loop is blocked, so a call sent
// during a long statement is timed from when it was sent. Started with `fork` by bench/jobs.mjs:
// `{ kind: 'measure', urls, headers, calls, pauseMs }` makes `calls` rounds over the urls (or, with
// `calls` null, rounds until `{ kind: 'stop' }`) and answers `{ kind: 'measured', times }`, the
// milliseconds of each call per url.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let stopped = false;

function call(url, headers) {
  return new Promise((resolve, reject) => {
    const sent = performance.now();
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const ms = performance.now() - sent;
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8', 0, 200)}`));
        else resolve(ms);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function measure({ urls, headers, calls, pauseMs }) {
  stopped = false;
  const times = urls.map(() => []);
  for (let round = 0; (calls === null || round < calls) && !stopped; round += 1) {
    for (const [i, url] of urls.entries()) {
      times[i].push(await call(url, headers));
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  return times;
}

process.on('message', (message) => {
  if (message.kind === 'stop') stopped = true;
  else if (message.kind === 'close') {
    agent.destroy();
    process.disconnect();
  } else if (message.kind === 'measure') {
    measure(message).then(
      (times) => process.send({ kind: 'measured', times }),
      (error) => process.send({ kind: 'error', message: error.message }),
    );
  }
});
process.send({ kind: 'ready' });
