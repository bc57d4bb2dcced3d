// A page of webhook/events starts before the event its `before` names. When that event is gone (the
// retention job deleted it, src/webhooks/retention.ts), the page still starts where it stood, placed by
// the time its id carries (UUID v7), so a merchant paging back through its oldest events is not stranded
// with a 404; that place may repeat an event or two, never skip one. An id that carries no time is
// still not found.
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdTimeMs, newEventId } from '../../src/webhooks/outbox.js';
import { paidPayment } from '../payments/api-helpers.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';

let server: TestServer;
let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
  merchant = await server.createMerchant();
  other = await server.createMerchant();
});
afterAll(async () => server.close());

const refsOf = (page: any): string[] => page.data.events.map((event: { resourceRef: string }) => event.resourceRef);

/** Deletes an event and its attempts as the retention job does. */
async function deleteEvent(id: string): Promise<void> {
  const db = server.services.store.db;
  await db.deleteFrom('webhook_attempts').where('event_id', '=', id).execute();
  const deleted = await db.deleteFrom('webhook_events').where('id', '=', id).executeTakeFirst();
  expect(deleted.numDeletedRows).toBe(1n);
}

describe('webhook/events paging', () => {
  it('reads the time an event id was made at, and nothing from an id of another form', () => {
    const before = Date.now();
    const id = newEventId();
    const madeAt = eventIdTimeMs(id)!;
    expect(madeAt).toBeGreaterThanOrEqual(before);
    expect(madeAt).toBeLessThanOrEqual(Date.now());
    expect(eventIdTimeMs(`evt_${'0'.repeat(32)}`)).toBeNull();
    expect(eventIdTimeMs(id.replace(/^evt_/, 'pay_'))).toBeNull();
  });

  it('goes on from the place of an event deleted since, and takes another merchant\'s id as only the time it carries', async () => {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 3));
    const refs: string[] = [];
    let theirs = '';
    for (let i = 0; i < 4; i++) {
      // Another merchant's event between this merchant's second and third.
      if (i === 2) {
        theirs = await paidPayment(other, 'INR', 'NATIVE');
        await pause();
      }
      refs.push(await paidPayment(merchant, 'INR', 'NATIVE'));
      // At least a millisecond apart, so the order by creation time is the order made.
      await pause();
    }
    const newestFirst = [...refs].reverse();
    const first = await merchant.client.webhookEvents({ limit: 2 });
    expect(refsOf(first)).toEqual(newestFirst.slice(0, 2));
    const cursor = first.data.nextBefore!;
    expect(cursor).toBe(first.data.events[1]!.id);

    await deleteEvent(cursor);
    const second = await merchant.client.webhookEvents({ limit: 2, before: cursor });
    expect(second.status).toBe(200);
    expect(refsOf(second)).toEqual(newestFirst.slice(2, 4));
    expect(second.data.nextBefore).toBeNull();

    // The other merchant's event id cuts this merchant's list at its time, and shows nothing of it.
    const theirEvent = (await other.client.webhookEvents({ limit: 1 })).data.events[0]!;
    expect(theirEvent.resourceRef).toBe(theirs);
    const byTheirs = await merchant.client.webhookEvents({ limit: 10, before: theirEvent.id });
    expect(byTheirs.status).toBe(200);
    expect(refsOf(byTheirs)).toEqual(newestFirst.slice(2, 4));
    // An id made now and never stored: everything this merchant has left.
    const never = await merchant.client.webhookEvents({ limit: 10, before: newEventId() });
    expect(refsOf(never)).toEqual([newestFirst[0], ...newestFirst.slice(2, 4)]);
  });

  it('repeats an event made between a deleted event\'s created time and its id\'s time, and skips none', async () => {
    // An id is made after its event's created time was read, so its time may be a little later. Rows
    // written here with chosen times: C's id is 30 ms later than its created time, and D was created
    // in between. The page before deleted C starts at C's id time, so it repeats D (already on the
    // page that led to C) and still has B and A.
    const lone = await server.createMerchant();
    const base = Date.now() - 60_000;
    const idAt = (ms: number): string => `evt_${uuidv7({ msecs: ms }).replace(/-/g, '')}`;
    const rows = [
      { name: 'A', createdMs: base, idMs: base },
      { name: 'B', createdMs: base + 1_000, idMs: base + 1_000 },
      { name: 'C', createdMs: base + 2_000, idMs: base + 2_030 },
      { name: 'D', createdMs: base + 2_010, idMs: base + 2_040 },
    ].map((row) => ({ ...row, id: idAt(row.idMs) }));
    await server.services.store.db
      .insertInto('webhook_events')
      .values(
        rows.map((row) => ({
          id: row.id,
          merchant_id: lone.id,
          type: 'payment.expired',
          resource_kind: 'payment',
          resource_ref: row.name,
          payload_json: '{}',
          url: null,
          destination_source: 'merchant',
          status: 'no_destination',
          attempt_count: 0n,
          schedule_step: 0n,
          next_attempt_at_ms: BigInt(row.createdMs),
          locked_until_ms: null,
          created_at_ms: BigInt(row.createdMs),
          delivered_at_ms: null,
          last_error: null,
        })),
      )
      .execute();
    const first = await lone.client.webhookEvents({ limit: 2 });
    expect(refsOf(first)).toEqual(['D', 'C']);
    await deleteEvent(first.data.nextBefore!);
    expect(refsOf(await lone.client.webhookEvents({ limit: 10, before: first.data.nextBefore! }))).toEqual(['D', 'B', 'A']);
  });

  it('answers 404 for an id that carries no time, as before', async () => {
    const answer = await merchant.client.webhookEvents({ before: `evt_${'0'.repeat(32)}` });
    expect(answer.status).toBe(404);
    expect(answer.message).toBe('NOT_FOUND');
  });
});
