// A page of webhook/events starts before the event its `before` names. When that event is gone (the
// retention job deleted it, src/webhooks/retention.ts), the page still starts where it stood, placed by
// the time its id carries (UUID v7), so a merchant paging back through its oldest events is not stranded
// with a 404; an id that carries no time is still not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEventId } from '../../src/webhooks/outbox.js';
import { eventIdTimeMs } from '../../src/webhooks/service.js';
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

  it('goes on from the place of an event deleted since, and from an id of another merchant the same as from one never stored', async () => {
    const refs: string[] = [];
    for (let i = 0; i < 4; i++) {
      refs.push(await paidPayment(merchant, 'INR', 'NATIVE'));
      // Events a millisecond apart at least, so the order by creation time is the order made.
      await new Promise((resolve) => setTimeout(resolve, 3));
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

    // Another merchant's event id places the page by its time, and says nothing of the event.
    const theirs = await paidPayment(other, 'INR', 'NATIVE');
    const theirEvent = (await other.client.webhookEvents({ limit: 1 })).data.events[0]!;
    expect(theirEvent.resourceRef).toBe(theirs);
    const byTheirs = await merchant.client.webhookEvents({ limit: 10, before: theirEvent.id });
    expect(byTheirs.status).toBe(200);
    expect(refsOf(byTheirs)).toEqual(newestFirst.filter((ref) => ref !== newestFirst[1]));
    const never = await merchant.client.webhookEvents({ limit: 10, before: newEventId() });
    expect(refsOf(never)).toEqual(refsOf(byTheirs));
  });

  it('answers 404 for an id that carries no time, as before', async () => {
    const answer = await merchant.client.webhookEvents({ before: `evt_${'0'.repeat(32)}` });
    expect(answer.status).toBe(404);
    expect(answer.message).toBe('NOT_FOUND');
  });
});
