import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { textOf } from '../../../lib/i18n/appTexts';
import { SERVICE_WORKER_PATH } from '../../../lib/pwa';
import { Button } from '../../../components/ui/Button';
import { Panel } from '../../../components/ui/Panel';
import { appTheme } from '../../../themes';
import { PUSH_KINDS, type PushAlerts, type PushKind, keyBytes } from '../lib/pushKinds';
import { pushApi } from '../state/pushApi';

/** The section's id: `/settings#notifications`. */
export const PUSH_SECTION = 'notifications';
/** How long turning on waits for the service worker to be running before saying so. */
const WORKER_WAIT_MS = 10_000;

const Kinds = styled.fieldset`
  border: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 8px;
  legend { font-weight: 600; font-size: 14px; margin-bottom: 8px; padding: 0; }
  label { display: flex; gap: 10px; align-items: center; cursor: pointer; }
  input { width: 20px; height: 20px; margin: 0; accent-color: ${appTheme.color.accent}; }
  &:disabled label { cursor: default; opacity: 0.7; }
`;

const Body = styled.div`
  display: grid;
  gap: 16px;
  justify-items: start;
`;

const Status = styled.p`
  margin: 0;
  font-weight: 600;
`;

const Note = styled.p`
  margin: 0;
  color: ${appTheme.color.textMuted};
  font-size: 14px;
`;

const Problem = styled.p`
  margin: 0;
  color: ${appTheme.color.danger};
  font-size: 14px;
`;

type State = 'checking' | 'unsupported' | 'disabled' | 'off' | 'on';

const EVERY_KIND = Object.fromEntries(PUSH_KINDS.map((kind) => [kind, true])) as PushAlerts;

const supported = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The app's worker once it runs (pushes need an active one), registered here if the page had not yet. */
async function runningWorker(): Promise<ServiceWorkerRegistration> {
  if (!(await navigator.serviceWorker.getRegistration())) await navigator.serviceWorker.register(SERVICE_WORKER_PATH);
  let timer = 0;
  const late = new Promise<never>((_, reject) => {
    timer = window.setTimeout(() => reject(new Error(textOf('push.workerLate'))), WORKER_WAIT_MS);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, late]);
  } finally {
    window.clearTimeout(timer);
  }
}

/**
 * Settings' "Notifications on this device" (issue 74): Web Push for this browser, asked for only
 * when the person turns it on; the kinds pushed can be chosen, and turning off unsubscribes.
 */
export default function PushSettings() {
  const t = useTranslations('push');
  // Each label named whole, so the catalogue test sees every key used.
  const kindLabels: Record<PushKind, string> = {
    follow: t('kind.follow'),
    follow_request: t('kind.follow_request'),
    like: t('kind.like'),
    comment: t('kind.comment'),
    mention: t('kind.mention'),
  };
  // Rendered only after hydration (LazyPushSettings): the browser can be asked at once.
  const [state, setState] = useState<State>(() => (supported() ? 'checking' : 'unsupported'));
  const [publicKey, setPublicKey] = useState<string | null>(null);
  const [alerts, setAlerts] = useState<PushAlerts>(EVERY_KIND);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!supported()) return;
    let live = true;
    void (async () => {
      try {
        const key = await pushApi.key();
        if (!live) return;
        if (!key) return setState('disabled');
        setPublicKey(key);
        // The server is asked only about a subscription this browser holds (none: off, no request).
        const registration = await navigator.serviceWorker.getRegistration();
        const inBrowser = await registration?.pushManager.getSubscription();
        const saved = inBrowser ? await pushApi.current() : null;
        if (!live) return;
        if (saved) setAlerts(saved.alerts);
        const on = saved !== null && saved.endpoint === inBrowser?.endpoint && Notification.permission === 'granted';
        setState(on ? 'on' : 'off');
      } catch (error) {
        if (!live) return;
        setProblem((error as Error).message);
        setState('off');
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const turnOn = () =>
    run(async () => {
      if (!publicKey) return;
      // The browser's question comes only now, from the person's press.
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') throw new Error(t('blocked'));
      const registration = await runningWorker();
      let subscription: PushSubscription;
      try {
        subscription = await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(publicKey),
        });
      } catch (error) {
        throw new Error(t('subscribeFailed', { reason: (error as Error).message }), { cause: error });
      }
      const saved = await pushApi.subscribe(subscription.toJSON(), alerts);
      setAlerts(saved.alerts);
      setState('on');
    });

  const turnOff = () =>
    run(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await (await registration?.pushManager.getSubscription())?.unsubscribe();
      await pushApi.remove();
      setState('off');
    });

  const toggleKind = (kind: PushKind, on: boolean) => {
    const next = { ...alerts, [kind]: on };
    setAlerts(next);
    // Off: the choice waits for turning on; on: the server's copy changes now.
    if (state === 'on')
      void run(async () => {
        setAlerts((await pushApi.change(next)).alerts);
      });
  };

  return (
    <Panel id={PUSH_SECTION} aria-labelledby="push-settings">
      <h2 id="push-settings">{t('heading')}</h2>
      <p className="lead">{t('lead')}</p>
      <Body>
        {state === 'checking' && <Note>{t('checking')}</Note>}
        {state === 'unsupported' && <Note>{t('unsupported')}</Note>}
        {state === 'disabled' && <Note>{t('disabled')}</Note>}
        {(state === 'on' || state === 'off') && (
          <>
            <Status role="status">{state === 'on' ? t('on') : t('off')}</Status>
            <Kinds disabled={busy}>
              <legend>{t('kinds')}</legend>
              {PUSH_KINDS.map((kind) => (
                <label key={kind}>
                  <input
                    type="checkbox"
                    checked={alerts[kind]}
                    onChange={(event) => toggleKind(kind, event.target.checked)}
                  />
                  {kindLabels[kind]}
                </label>
              ))}
            </Kinds>
            {state === 'off' ? (
              <Button onClick={() => void turnOn()} disabled={busy}>
                {t('turnOn')}
              </Button>
            ) : (
              <Button $variant="secondary" onClick={() => void turnOff()} disabled={busy}>
                {t('turnOff')}
              </Button>
            )}
          </>
        )}
        {problem && <Problem role="alert">{problem}</Problem>}
      </Body>
    </Panel>
  );
}
