import type { Topology } from './topology';

/** Deliveries at the receiver against the outbox: every event delivered, duplicates only as the same eventId. */
export async function deliveryFigures(topo: Pick<Topology, 'db' | 'receiver'>) {
  const events = await topo.db.prisma.webhookEvent.findMany({
    where: { type: 'policy.issued' },
    select: { eventId: true, payload: true },
  });
  const received = new Map<string, number>();
  const eventIdsByPolicy = new Map<string, Set<string>>();
  for (const d of topo.receiver.deliveries) {
    received.set(d.eventId, (received.get(d.eventId) ?? 0) + 1);
    const ids = eventIdsByPolicy.get(String(d.policyNumber)) ?? new Set<string>();
    ids.add(d.eventId);
    eventIdsByPolicy.set(String(d.policyNumber), ids);
  }
  const lost = events.filter((e) => !received.has(e.eventId)).map((e) => e.eventId);
  const unknown = [...received.keys()].filter((id) => !events.some((e) => e.eventId === id));
  const deliveries = topo.receiver.deliveries.length;
  return {
    events: events.length,
    deliveries,
    distinctDelivered: received.size,
    duplicates: deliveries - received.size,
    lost,
    unknown,
    policiesWithSeveralEventIds: [...eventIdsByPolicy.values()].filter((s) => s.size > 1).length,
  };
}
