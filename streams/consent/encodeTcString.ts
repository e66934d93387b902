import { GVL, TCModel, TCString } from '@iabtcf/core';

/** The TCF policy version of TCF v2.2. */
export const TCF_POLICY_VERSION = 5;
/** The CMP id the demo CMP writes into its TC strings (registered ids start at 2; this one is not registered). */
export const DEMO_CMP_ID = 2;
export const DEMO_CMP_VERSION = 1;

/** The eleven purposes of TCF v2.2, by the IAB's short names. */
const PURPOSE_NAMES = [
  'Store and/or access information on a device',
  'Use limited data to select advertising',
  'Create profiles for personalised advertising',
  'Use profiles to select personalised advertising',
  'Create profiles to personalise content',
  'Use profiles to select personalised content',
  'Measure advertising performance',
  'Measure content performance',
  'Understand audiences through statistics or combinations of data from different sources',
  'Develop and improve services',
  'Use limited data to select content',
];

const declarations = (names: readonly string[]) =>
  Object.fromEntries(names.map((name, i) => [i + 1, { id: i + 1, name, description: name, descriptionLegal: name }]));

/**
 * A minimal global vendor list (GVL specification 3, TCF policy 5) holding the eleven purposes, the two special
 * purposes, three features and two special features of TCF v2.2 and no vendors: enough for `@iabtcf/core` to encode
 * publisher-level purpose consents without fetching the IAB's list.
 */
export function createDemoGvl(): GVL {
  return new GVL({
    gvlSpecificationVersion: 3,
    vendorListVersion: 1,
    tcfPolicyVersion: TCF_POLICY_VERSION,
    lastUpdated: '2024-01-01T00:00:00Z',
    purposes: declarations(PURPOSE_NAMES),
    specialPurposes: declarations(['Ensure security, prevent and detect fraud, and fix errors', 'Deliver and present advertising and content']),
    features: declarations([
      'Match and combine data from other data sources',
      'Link different devices',
      'Identify devices based on information transmitted automatically',
    ]),
    specialFeatures: declarations(['Use precise geolocation data', 'Actively scan device characteristics for identification']),
    vendors: {},
    stacks: {},
  });
}

export interface DemoTcStringOptions {
  /** Consent to purpose 1, "Store and/or access information on a device". */
  purposeOne: boolean;
  cmpId?: number;
  cmpVersion?: number;
  /** The creation (and last-update) time; the library's day-level "now" by default. */
  createdMs?: number;
}

/**
 * A TCF v2.2 TC string (service-specific, policy version 5) with consent to purpose 1 or without any consent, encoded
 * by `@iabtcf/core` against {@link createDemoGvl}. The demo host page's CMP and the tests use it; `TCString.decode`
 * reads it back.
 *
 * ```
 * TCString.decode(encodeDemoTcString({ purposeOne: true })).purposeConsents.has(1)  → true
 * ```
 */
export function encodeDemoTcString({ purposeOne, cmpId = DEMO_CMP_ID, cmpVersion = DEMO_CMP_VERSION, createdMs }: DemoTcStringOptions): string {
  const model = new TCModel(createDemoGvl());
  model.cmpId = cmpId;
  model.cmpVersion = cmpVersion;
  model.isServiceSpecific = true;
  if (createdMs !== undefined) {
    model.created = new Date(createdMs);
    model.lastUpdated = new Date(createdMs);
  }
  if (purposeOne) model.purposeConsents.set(1);
  return TCString.encode(model);
}
