import { StrictMode } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ConsentManagerPanel } from '../../../../src/host/demo/ConsentManagerPanel';
import type { TcfApi, TCData } from '../../../../src/host/demo/ConsentManager';

// The panel's CMP makes its TC strings with encodeDemoTcString; these tests only need to tell consent from none.
jest.mock('../../../../streams/consent/encodeTcString', () => ({
  encodeDemoTcString: ({ purposeOne }: { purposeOne: boolean }) => (purposeOne ? 'TC-CONSENT' : 'TC-NO-CONSENT'),
}));

const tcfWindow = window as Window & { __tcfapi?: TcfApi };

describe('<ConsentManagerPanel> in StrictMode', () => {
  beforeEach(() => localStorage.clear());

  it('runs one CMP while mounted, shows its state, and grants and withdraws with its buttons', async () => {
    const view = render(
      <StrictMode>
        <ConsentManagerPanel />
      </StrictMode>,
    );
    expect(screen.getByRole('heading', { name: 'Consent (IAB TCF v2.2 demo CMP)' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('consent-state').textContent).toBe('Not decided: no consent'));
    expect(document.querySelectorAll('iframe[name="__tcfapiLocator"]')).toHaveLength(1);
    expect(screen.getByTestId('consent-tc-string').textContent).toBe('TC-NO-CONSENT');

    const heard: TCData[] = [];
    act(() => tcfWindow.__tcfapi!('addEventListener', 2, (tcData) => void heard.push(tcData as TCData)));
    await waitFor(() => expect(screen.getByTestId('consent-listeners').textContent).toBe('1'));

    fireEvent.click(screen.getByRole('button', { name: 'Grant consent' }));
    await waitFor(() => expect(screen.getByTestId('consent-state').textContent).toBe('Granted'));
    expect((screen.getByRole('button', { name: 'Grant consent' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('consent-event-status').textContent).toBe('useractioncomplete');
    expect(screen.getByTestId('consent-tc-string').textContent).toBe('TC-CONSENT');

    fireEvent.click(screen.getByRole('button', { name: 'Withdraw consent' }));
    await waitFor(() => expect(screen.getByTestId('consent-state').textContent).toBe('Withdrawn: no consent'));
    expect(heard.map((d) => [d.eventStatus, d.purpose.consents[1]])).toEqual([
      ['tcloaded', false],
      ['useractioncomplete', true],
      ['useractioncomplete', false],
    ]);

    view.unmount();
    expect(tcfWindow.__tcfapi).toBeUndefined();
    expect(document.querySelector('iframe[name="__tcfapiLocator"]')).toBeNull();
  });
});
