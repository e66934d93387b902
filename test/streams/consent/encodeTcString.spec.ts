import { TCModel, TCString } from '@iabtcf/core';
import { createDemoGvl, DEMO_CMP_ID, encodeDemoTcString, TCF_POLICY_VERSION } from '../../../streams/consent/encodeTcString';

describe('encodeDemoTcString', () => {
  it('encodes consent to purpose 1 that TCString.decode reads back', () => {
    const decoded = TCString.decode(encodeDemoTcString({ purposeOne: true }));
    expect(decoded.purposeConsents.has(1)).toBe(true);
    expect(decoded.purposeConsents.size).toBe(1);
    expect(decoded.cmpId).toBe(DEMO_CMP_ID);
    expect(decoded.cmpVersion).toBe(1);
    expect(decoded.policyVersion).toBe(TCF_POLICY_VERSION);
    expect(decoded.isServiceSpecific).toBe(true);
  });

  it('encodes no consent at all without purpose 1', () => {
    const decoded = TCString.decode(encodeDemoTcString({ purposeOne: false }));
    expect(decoded.purposeConsents.has(1)).toBe(false);
    expect(decoded.purposeConsents.size).toBe(0);
  });

  it('takes the CMP id, version and creation time', () => {
    const createdMs = Date.UTC(2025, 0, 2);
    const text = encodeDemoTcString({ purposeOne: true, cmpId: 300, cmpVersion: 7, createdMs });
    const decoded = TCString.decode(text);
    expect([decoded.cmpId, decoded.cmpVersion]).toEqual([300, 7]);
    expect((decoded.created as Date).getTime()).toBe(createdMs);
    // Same inputs, same string.
    expect(encodeDemoTcString({ purposeOne: true, cmpId: 300, cmpVersion: 7, createdMs })).toBe(text);
  });

  it('gives a GVL that is ready at once, with the eleven purposes of TCF v2.2', () => {
    const gvl = createDemoGvl();
    expect(gvl.isReady).toBe(true);
    expect(Object.keys(gvl.purposes)).toHaveLength(11);
    const model = new TCModel(gvl);
    model.cmpId = 5;
    model.purposeConsents.set([2, 3]);
    expect(TCString.decode(TCString.encode(model)).purposeConsents.has(1)).toBe(false);
  });
});
