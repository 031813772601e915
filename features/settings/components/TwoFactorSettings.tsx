import { useEffect, useRef, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { useAppDispatch } from '../../../store/hooks';
import { showToast } from '../../toasts';
import { textOf } from '../../../lib/i18n/appTexts';
import { Button } from '../../../components/ui/Button';
import { Panel, Stack } from '../../../components/ui/Panel';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { appTheme } from '../../../themes';
import { qrGround } from '../../../themes/fixed';
import type { TwoFactorStatus } from '../state/securityApi';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from '../state/securityThunks';
import { SETTINGS_SECTIONS } from '../lib/sections';

const Qr = styled.img`
  width: 200px;
  height: 200px;
  border-radius: ${appTheme.radius.sm};
  background: ${qrGround};
`;

const Secret = styled.code`
  display: inline-block;
  padding: 6px 10px;
  border-radius: ${appTheme.radius.sm};
  background: ${appTheme.color.bg};
  font-size: 15px;
  letter-spacing: 0.08em;
  word-break: break-all;
`;

const Codes = styled.ol`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: 6px 24px;
  margin: 0;
  padding-block: 12px;
  padding-inline: 36px 12px;
  border-radius: ${appTheme.radius.sm};
  background: ${appTheme.color.bg};
  font-family: ui-monospace, monospace;
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
  flex-wrap: wrap;
`;

/** The codes as a text file: what they are, one code a line. */
export function recoveryCodesText(codes: readonly string[]): string {
  return `${textOf('settings.twoFactor.fileTitle')}\n\n${codes.join('\n')}\n`;
}

function downloadCodes(codes: readonly string[]) {
  const url = URL.createObjectURL(new Blob([recoveryCodesText(codes)], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'posts-recovery-codes.txt';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

type Step =
  { kind: 'idle' } | { kind: 'scan'; secret: string; qr: string | null } | { kind: 'codes'; recoveryCodes: string[] };

interface Props {
  status: TwoFactorStatus;
  onChanged: () => void;
}

/** Off: set it up (QR code, then a code to confirm, then the recovery codes). On: turn it off. */
export function TwoFactorSettings({ status, onChanged }: Props) {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const scanForm = useRef<HTMLFormElement>(null);
  const saved = useRef<HTMLButtonElement>(null);
  // The button pressed is gone with each step: focus goes where the next step starts.
  useEffect(() => {
    if (step.kind === 'scan') (scanForm.current?.elements.namedItem('code') as HTMLInputElement | null)?.focus();
    if (step.kind === 'codes') saved.current?.focus();
  }, [step.kind]);

  async function start() {
    setBusy(true);
    const result = await dispatch(setupTwoFactor());
    setBusy(false);
    if (!setupTwoFactor.fulfilled.match(result)) return;
    const { otpauthUrl, secret } = result.payload;
    setStep({ kind: 'scan', secret, qr: null });
    // The QR encoder loads only here, with the setup, never with the page.
    const { toDataURL } = await import('qrcode');
    const qr = await toDataURL(otpauthUrl, { margin: 1, width: 200 });
    setStep((now) => (now.kind === 'scan' && now.secret === secret ? { ...now, qr } : now));
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await dispatch(enableTwoFactor(code.trim()));
    setBusy(false);
    if (!enableTwoFactor.fulfilled.match(result)) return;
    setCode('');
    setStep({ kind: 'codes', recoveryCodes: result.payload.recoveryCodes });
  }

  async function turnOff(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await dispatch(disableTwoFactor({ password, code: code.trim() }));
    setBusy(false);
    if (!disableTwoFactor.fulfilled.match(result)) return;
    setCode('');
    setPassword('');
    onChanged();
  }

  // Copy and Download keep the codes (issue 68, item 18); the toast says what happened.
  async function copyCodes(codes: string[]) {
    try {
      await navigator.clipboard.writeText(recoveryCodesText(codes));
      dispatch(showToast(t('twoFactor.copied'), 'success'));
    } catch {
      dispatch(showToast(t('twoFactor.copyFailed'), 'error'));
    }
  }

  function finish() {
    setStep({ kind: 'idle' });
    onChanged();
  }

  return (
    <Panel id={SETTINGS_SECTIONS.twofactor} aria-labelledby="two-factor-settings">
      <h2 id="two-factor-settings">{t('twoFactor.heading')}</h2>
      {step.kind === 'codes' ? (
        <Stack>
          <p>{t('twoFactor.codesIntro')}</p>
          <Codes aria-label={t('twoFactor.codes')}>
            {step.recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </Codes>
          <Actions>
            <Button $variant="secondary" onClick={() => void copyCodes(step.recoveryCodes)}>
              {t('twoFactor.copy')}
            </Button>
            <Button $variant="secondary" onClick={() => downloadCodes(step.recoveryCodes)}>
              {t('twoFactor.download')}
            </Button>
            <Button ref={saved} onClick={finish}>
              {t('twoFactor.saved')}
            </Button>
          </Actions>
        </Stack>
      ) : status.enabled ? (
        <form onSubmit={(event) => void turnOff(event)} noValidate>
          <Stack>
            <p className="lead">{t('twoFactor.onLead', { count: status.recoveryCodesLeft })}</p>
            <TextField
              label={t('twoFactor.password')}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <TextField
              label={t('twoFactor.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              hint={t('twoFactor.codeHint')}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <Actions>
              <Button type="submit" $variant="danger" disabled={busy} aria-busy={busy}>
                {busy && <Spinner />} {t('twoFactor.turnOff')}
              </Button>
            </Actions>
          </Stack>
        </form>
      ) : step.kind === 'scan' ? (
        <form ref={scanForm} onSubmit={(event) => void confirm(event)} noValidate>
          <Stack>
            <p className="lead">{t('twoFactor.scanLead')}</p>
            {step.qr ? <Qr src={step.qr} alt={t('twoFactor.qr')} width={200} height={200} /> : <Spinner />}
            <div>
              {t('twoFactor.key')} <Secret data-testid="two-factor-secret">{step.secret}</Secret>
            </div>
            <TextField
              label={t('twoFactor.appCode')}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <Actions>
              <Button $variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
                {t('twoFactor.cancel')}
              </Button>
              <Button type="submit" disabled={busy} aria-busy={busy}>
                {busy && <Spinner />} {t('twoFactor.turnOn')}
              </Button>
            </Actions>
          </Stack>
        </form>
      ) : (
        <Stack>
          <p className="lead">{t('twoFactor.offLead')}</p>
          <Actions>
            <Button onClick={() => void start()} disabled={busy} aria-busy={busy}>
              {busy && <Spinner />} {t('twoFactor.setUp')}
            </Button>
          </Actions>
        </Stack>
      )}
    </Panel>
  );
}
