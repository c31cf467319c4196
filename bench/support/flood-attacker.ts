// Child process of bench/logistics-flood.ts: sends wrongly signed 9 MB (and 900 KB) logistics
// bodies with a known X-App-Id / X-App-MerchantId back to back, from 3 connections, until its
// stdin closes; prints the outcomes as one JSON line at the end.
import { request } from 'undici';

const { url, appId, merchantId } = JSON.parse(process.argv[2] as string) as {
  url: string;
  appId: string;
  merchantId: string;
};
const body = (bytes: number) =>
  Buffer.from(JSON.stringify({ orderId: 'x', padding: Array.from({ length: Math.ceil(bytes / 8) }, () => 'aaaa') }));
const huge = body(9 * 1024 * 1024);
const under = body(900 * 1024);
let running = true;
process.stdin.on('end', () => {
  running = false;
});
process.stdin.resume();
const statuses: Record<string, number> = {};
async function attacker(payload: Buffer) {
  while (running) {
    const status = await request(`${url}/v1/logistics/deliveryUpdate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-app-id': appId,
        'x-app-merchantid': merchantId,
        'x-app-signature': 'f'.repeat(64),
      },
      body: payload,
    })
      .then(async (res) => {
        await res.body.text();
        return String(res.statusCode);
      })
      .catch(() => 'cut');
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}
process.stdout.write('ready\n');
await Promise.all([attacker(huge), attacker(huge), attacker(under)]);
process.stdout.write(`${JSON.stringify(statuses)}\n`);
