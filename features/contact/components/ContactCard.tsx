import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { errorMessage } from '../../../services/apiClient';
import type { InstanceInfo } from '../../../lib/types';
import { instanceApi } from '../state/instanceApi';
import { Icon } from '../../../components/ui/Icon';
import { PageContainer, PageLead, PageTitle, Panel } from '../../../components/ui/Panel';
import { Skeleton } from '../../../components/ui/Skeleton';
import { appTheme } from '../../../themes';

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: 14px;
  > span:first-child {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 44px;
    height: 44px;
    border-radius: 12px;
    background: ${appTheme.color.accentSoft};
    color: ${appTheme.color.accent};
    flex: none;
  }
  a { font-weight: 600; font-size: 17px; overflow-wrap: anywhere; }
  small { display: block; color: ${appTheme.color.textMuted}; font-size: 13px; }
`;

const Notes = styled.ul`
  margin: 20px 0 0;
  padding-inline-start: 20px;
  color: ${appTheme.color.textMuted};
  li + li { margin-top: 6px; }
`;

/** `initial`: what the server rendered the page with; without it (a client-side navigation) the card reads it. */
export function ContactCard({ initial = null }: { initial?: InstanceInfo | null }) {
  const t = useTranslations('contact');
  const [info, setInfo] = useState<InstanceInfo | null>(initial);
  const [error, setError] = useState<string | null>(null);

  // Read once on mount, unless the server already rendered the page with it.
  useEffect(() => {
    if (!initial) instanceApi.instance().then(setInfo, (err: unknown) => setError(errorMessage(err)));
  }, [initial]);

  return (
    <PageContainer $width={640}>
      <PageTitle>{t('title')}</PageTitle>
      <PageLead>{info ? t('leadNamed', { name: info.name }) : t('lead')}</PageLead>
      <Panel aria-labelledby="contact-title">
        <h2 id="contact-title" className="visually-hidden">
          {t('howToReach')}
        </h2>
        {error ? (
          <p role="alert">{t('failed', { error })}</p>
        ) : info ? (
          <Row>
            <span aria-hidden="true">
              <Icon name="mail" size={22} />
            </span>
            <div>
              <small>{t('emailTeam', { name: info.name })}</small>
              <a href={`mailto:${info.contactEmail}`}>{info.contactEmail}</a>
            </div>
          </Row>
        ) : (
          <div aria-hidden="true" style={{ display: 'grid', gap: 8 }}>
            <Skeleton $w="40%" />
            <Skeleton $w="60%" $h="20px" />
          </div>
        )}
        <Notes>
          <li>{t('notes.username')}</li>
          <li>{t('notes.report')}</li>
        </Notes>
      </Panel>
    </PageContainer>
  );
}
