import { useEffect, useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { ACCOUNT_ADDRESS_MAX, ACCOUNT_ALIASES_MAX } from '../../../lib/limits';
import type { AccountAlias } from '../../../lib/types';
import { links } from '../../../lib/pages';
import { fetchLoggedUser, selectUser } from '../../auth';
import { AppLink } from '../../../components/ui/AppLink';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { PersonName } from '../../../components/ui/PersonName';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { appTheme } from '../../../themes';
import { movingApi } from '../state/movingApi';

const Part = styled.form`
  display: grid;
  gap: 12px;
  & > * { min-width: 0; }
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

const Aliases = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 6px;
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    font-size: 14px;
    overflow-wrap: anywhere;
    min-width: 0;
  }
`;

const Moved = styled.p`
  margin: 0;
  padding: 10px 14px;
  border-radius: 10px;
  border: 1px solid ${appTheme.color.border};
  background: ${appTheme.color.surfaceRaised};
  overflow-wrap: anywhere;
  a { color: ${appTheme.color.text}; font-weight: 600; text-decoration: underline; }
`;

/** Aliases: the accounts that may move here (`alsoKnownAs` on this account's actor). */
function AliasesPart() {
  const id = useId();
  const t = useTranslations('moving');
  const [aliases, setAliases] = useState<AccountAlias[] | null>(null);
  const [address, setAddress] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    movingApi.aliases().then(
      (found) => live && setAliases(found),
      () => live && setAliases([]),
    );
    return () => {
      live = false;
    };
  }, []);

  async function change(work: () => Promise<AccountAlias[]>) {
    setBusy(true);
    setProblem(null);
    try {
      setAliases(await work());
      return true;
    } catch (error) {
      setProblem((error as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!address.trim()) return setProblem(t('aliases.required'));
    if (await change(() => movingApi.addAlias(address.trim()))) setAddress('');
  }

  return (
    <Part aria-labelledby={`${id}-title`} onSubmit={(event) => void add(event)} noValidate>
      <h3 id={`${id}-title`}>{t('aliases.heading')}</h3>
      <Note>{t('aliases.note', { max: ACCOUNT_ALIASES_MAX })}</Note>
      {aliases && aliases.length > 0 && (
        <Aliases aria-label={t('aliases.list')}>
          {aliases.map(({ uri, address }) => (
            <li key={uri}>
              <span>{address ? `@${address}` : uri}</span>
              <Button
                type="button"
                $variant="secondary"
                $size="sm"
                disabled={busy}
                aria-label={t('aliases.removeOf', { alias: address ? `@${address}` : uri })}
                onClick={() => void change(() => movingApi.removeAlias(uri))}
              >
                {t('aliases.remove')}
              </Button>
            </li>
          ))}
        </Aliases>
      )}
      <TextField
        label={t('aliases.address')}
        name="alias"
        placeholder="name@server.example"
        value={address}
        maxLength={ACCOUNT_ADDRESS_MAX}
        onChange={(e) => setAddress(e.target.value)}
        autoComplete="off"
      />
      {problem && <Problem role="alert">{problem}</Problem>}
      <div>
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy && <Spinner />} {t('aliases.add')}
        </Button>
      </div>
    </Part>
  );
}

/** Moving this account out: to an account that names it among its aliases. */
function MoveOutPart() {
  const id = useId();
  const t = useTranslations('moving');
  const dispatch = useAppDispatch();
  const movedTo = useAppSelector(selectUser)?.movedTo;
  const [address, setAddress] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function move() {
    setBusy(true);
    setProblem(null);
    try {
      await movingApi.moveTo(address.trim());
      setConfirming(false);
      // The account now says where it went: the profile, the composer.
      await dispatch(fetchLoggedUser());
    } catch (error) {
      setConfirming(false);
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  if (movedTo)
    return (
      <Part as="div" role="group" aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`}>{t('moveOut.heading')}</h3>
        <Moved role="status">
          {t.rich('moveOut.moved', {
            account: () => (
              <AppLink href={links.profile(movedTo.username)}>
                @<PersonName username={movedTo.username} />
              </AppLink>
            ),
          })}
        </Moved>
      </Part>
    );

  return (
    <Part
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!address.trim()) return setProblem(t('moveOut.required'));
        setProblem(null);
        setConfirming(true);
      }}
      noValidate
    >
      <h3 id={`${id}-title`}>{t('moveOut.heading')}</h3>
      <Note>{t('moveOut.note')}</Note>
      <TextField
        label={t('moveOut.address')}
        name="target"
        placeholder="name@server.example"
        value={address}
        maxLength={ACCOUNT_ADDRESS_MAX}
        onChange={(e) => setAddress(e.target.value)}
        autoComplete="off"
      />
      {problem && <Problem role="alert">{problem}</Problem>}
      <div>
        <Button type="submit" $variant="danger" disabled={busy}>
          {t('moveOut.move')}
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={t('moveOut.confirmTitle')}
          message={t('moveOut.confirmMessage', { address: address.trim() })}
          confirmLabel={t('moveOut.confirm')}
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void move()}
        />
      )}
    </Part>
  );
}

/** Moving the account itself (issue 76, items 3 and 4), under the CSV lists in Move in and out. */
export function AccountMoves() {
  return (
    <>
      <AliasesPart />
      <MoveOutPart />
    </>
  );
}
