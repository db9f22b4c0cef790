import { WIDGET_EVENT_SCHEMAS } from './events/widget-events.schema';
import { WIDGET_EVENT_NAMES, WIDGET_MESSAGE_PREFIX, type WidgetEventMessage } from './widget-protocol';

// That it reaches no zod (only the rules entry) is proven for every browser entry by zod-free-entries.spec.ts.
describe('widget protocol (@expedition/contracts/widget-protocol)', () => {
  it('has exactly one zod schema per event name, in the same order', () => {
    expect(Object.keys(WIDGET_EVENT_SCHEMAS)).toEqual([...WIDGET_EVENT_NAMES]);
  });

  it('names the five events of embed v1 and the svc: channel', () => {
    expect(WIDGET_EVENT_NAMES).toEqual([
      'quote.ready',
      'quote.selected',
      'quote.error',
      'payment.succeeded',
      'payment.failed',
    ]);
    expect(WIDGET_MESSAGE_PREFIX).toBe('svc:');
  });

  it('types a message so that its payload is validated by the schema of its event', () => {
    const message: WidgetEventMessage = { type: 'svc:quote.selected', payload: { planId: 'p', premiumCents: 37634 } };
    const name = message.type.slice(WIDGET_MESSAGE_PREFIX.length) as keyof typeof WIDGET_EVENT_SCHEMAS;
    expect(WIDGET_EVENT_SCHEMAS[name].parse(message.payload)).toEqual({ planId: 'p', premiumCents: 37634 });
    // @ts-expect-error quote.selected requires premiumCents
    const missing: WidgetEventMessage = { type: 'svc:quote.selected', payload: { planId: 'p' } };
    expect(WIDGET_EVENT_SCHEMAS['quote.selected'].safeParse(missing.payload).success).toBe(false);
  });
});
