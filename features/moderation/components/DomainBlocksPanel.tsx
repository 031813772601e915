import { useId, useState } from 'react';
import { useTranslations } from 'use-intl/react';
import type { DomainSeverity } from '../../../lib/types';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { Button } from '../../../components/ui/Button';
import { Panel } from '../../../components/ui/Panel';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { blockDomain, selectDomains, unblockDomain } from '../state/adminSlice';
import { AdminForm as Form, AdminList as List, Problem } from './AdminParts';

/** Other servers blocked as a whole (issue 32): the list, a form to block or change one, Unblock. */
export function DomainBlocksPanel() {
  const dispatch = useAppDispatch();
  const id = useId();
  const t = useTranslations('admin');
  const { items, error, problem } = useAppSelector(selectDomains);
  const [domain, setDomain] = useState('');
  const [severity, setSeverity] = useState<DomainSeverity>('silence');
  return (
    <Panel aria-labelledby="admin-domains">
      <h2 id="admin-domains">{t('domains.heading')}</h2>
      <p className="lead">{t('domains.lead')}</p>
      <Form
        onSubmit={async (event) => {
          event.preventDefault();
          if (!domain.trim()) return;
          const done = await dispatch(blockDomain({ domain: domain.trim(), severity }));
          if (blockDomain.fulfilled.match(done)) setDomain('');
        }}
      >
        <label htmlFor={`${id}-domain`}>
          {t('domains.domain')}
          <input
            id={`${id}-domain`}
            value={domain}
            onChange={(e) => setDomain(e.target.value)}
            placeholder="example.com"
            autoComplete="off"
          />
        </label>
        <label htmlFor={`${id}-severity`}>
          {t('domains.severity')}
          <select
            id={`${id}-severity`}
            value={severity}
            onChange={(e) => setSeverity(e.target.value as DomainSeverity)}
          >
            <option value="silence">{t('domains.silence')}</option>
            <option value="suspend">{t('domains.suspend')}</option>
          </select>
        </label>
        <Button type="submit">{t('domains.block')}</Button>
      </Form>
      {(error || problem) && <Problem role="alert">{error ?? problem}</Problem>}
      {items && items.length === 0 && <p>{t('domains.empty')}</p>}
      <List aria-label={t('domains.list')}>
        {items?.map((block) => (
          <li key={block.domain}>
            <span className="what">
              <strong>{block.domain}</strong>
              <span className="meta">
                {block.severity === 'suspend'
                  ? t.rich('domains.suspended', { time: () => <RelativeTime iso={block.updatedAt} /> })
                  : t.rich('domains.silenced', { time: () => <RelativeTime iso={block.updatedAt} /> })}
              </span>
            </span>
            <Button
              $variant="secondary"
              $size="sm"
              aria-label={t('domains.unblockOf', { domain: block.domain })}
              onClick={() => void dispatch(unblockDomain(block.domain))}
            >
              {t('domains.unblock')}
            </Button>
          </li>
        ))}
      </List>
    </Panel>
  );
}
