import { useId, useState } from 'react';
import styled from 'styled-components';
import { useLocale, useTranslations } from 'use-intl/react';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../lib/i18n/languages';
import { useAppSelector } from '../../../store/hooks';
import { appTheme } from '../../../themes';
import { selectUser } from '../../auth';
import { rememberLanguage } from '../lib/languageCookie';
import { reloadPage } from '../lib/reloadPage';
import { languageApi } from '../state/languageApi';

const Field = styled.div`
  display: grid;
  margin-top: 16px;
  gap: 6px;
  justify-items: start;
  label { font-size: 14px; font-weight: 600; color: ${appTheme.color.textMuted}; }
  select {
    min-height: 40px;
    padding: 6px 10px;
    border-radius: ${appTheme.radius.sm};
    border: 1px solid ${appTheme.color.border};
    background: ${appTheme.color.surface};
  }
  p { margin: 0; font-size: 14px; color: ${appTheme.color.danger}; }
`;

/**
 * The app's language, each named in itself. A member's choice is saved to the account first (the
 * server renders its pages and mails in it); the cookie keeps it in this browser; then the page loads
 * again in it (lib/reloadPage.ts says why a full load).
 */
export function LanguagePicker() {
  const t = useTranslations('language');
  const id = useId();
  const locale = useLocale();
  const current: Language = isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
  const signedIn = useAppSelector(selectUser) !== null;
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);

  async function choose(language: Language) {
    if (language === current) return;
    setFailed(false);
    if (signedIn) {
      setSaving(true);
      try {
        await languageApi.save(language);
      } catch {
        // Nothing changed: the cookie alone would lose to the account's setting on the next full load.
        setSaving(false);
        setFailed(true);
        return;
      }
    }
    rememberLanguage(language);
    reloadPage();
  }

  return (
    <Field>
      <label htmlFor={id}>{t('label')}</label>
      <select
        id={id}
        value={current}
        disabled={saving}
        aria-busy={saving}
        aria-describedby={failed ? `${id}-failed` : undefined}
        onChange={(event) => {
          const chosen = event.target.value;
          if (isLanguage(chosen)) void choose(chosen);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
      {failed && (
        <p id={`${id}-failed`} role="alert">
          {t('saveFailed')}
        </p>
      )}
    </Field>
  );
}
