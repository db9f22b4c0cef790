/**
 * The main exclusions every plan's policy wording lists (illustrative, like the carriers). Plan-specific limits —
 * destinations, ages, trip length, residence — come from each plan's own row; these apply to all plans.
 */
export const GENERAL_EXCLUSIONS = [
  'A medical condition you were treated for, or had symptoms of, in the 90 days before the policy was issued, unless the assistance team accepted it in writing.',
  "Traveling against a doctor's advice, or to get medical treatment.",
  "Mountaineering above 6,000 m, and climbing or ski touring that needs ropes, unless the trip's operator guides it.",
  'Injury or illness caused by alcohol or drugs (except as prescribed), or by deliberate self-harm.',
  'War, invasion or civil war; and nuclear, chemical or biological contamination.',
  "Anything that was known or announced when the policy was issued (for example a strike, a storm warning or an operator's insolvency).",
  'Cancelling for a reason that is not a covered reason, unless the plan includes cancel for any reason.',
  "Travel to a destination the plan does not cover, or days of travel beyond the plan's longest trip.",
] as const;
