import { useId, useState } from 'react';
import type { DomainSeverity } from '../../../lib/types';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { Button } from '../../../components/ui/Button';
import { Panel } from '../../../components/ui/Panel';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { blockDomain, selectDomains, unblockDomain } from '../state/adminSlice';
import { AdminForm as Form, AdminList as List, Problem } from './AdminParts';

const SEVERITY_TEXTS: Record<DomainSeverity, string> = {
  silence: 'Silenced: hidden from people who do not follow them',
  suspend: 'Suspended: nothing in or out',
};

/** Other servers blocked as a whole (issue 32): the list, a form to block or change one, Unblock. */
export function DomainBlocksPanel() {
  const dispatch = useAppDispatch();
  const id = useId();
  const { items, error, problem } = useAppSelector(selectDomains);
  const [domain, setDomain] = useState('');
  const [severity, setSeverity] = useState<DomainSeverity>('silence');
  return (
    <Panel aria-labelledby="admin-domains">
      <h2 id="admin-domains">Blocked domains</h2>
      <p className="lead">
        Other servers as a whole. Silence hides their people from those who do not follow them; suspend stops everything
        to and from them.
      </p>
      <Form
        onSubmit={async (event) => {
          event.preventDefault();
          if (!domain.trim()) return;
          const done = await dispatch(blockDomain({ domain: domain.trim(), severity }));
          if (blockDomain.fulfilled.match(done)) setDomain('');
        }}
      >
        <label htmlFor={`${id}-domain`}>
          Domain
          <input
            id={`${id}-domain`}
            value={domain}
            onChange={(e) => setDomain(e.target.value)}
            placeholder="example.com"
            autoComplete="off"
          />
        </label>
        <label htmlFor={`${id}-severity`}>
          Severity
          <select
            id={`${id}-severity`}
            value={severity}
            onChange={(e) => setSeverity(e.target.value as DomainSeverity)}
          >
            <option value="silence">Silence</option>
            <option value="suspend">Suspend</option>
          </select>
        </label>
        <Button type="submit">Block domain</Button>
      </Form>
      {(error || problem) && <Problem role="alert">{error ?? problem}</Problem>}
      {items && items.length === 0 && <p>No domain is blocked.</p>}
      <List aria-label="Blocked domains">
        {items?.map((block) => (
          <li key={block.domain}>
            <span className="what">
              <strong>{block.domain}</strong>
              <span className="meta">
                {SEVERITY_TEXTS[block.severity]} · since <RelativeTime iso={block.updatedAt} />
              </span>
            </span>
            <Button
              $variant="secondary"
              $size="sm"
              aria-label={`Unblock ${block.domain}`}
              onClick={() => void dispatch(unblockDomain(block.domain))}
            >
              Unblock
            </Button>
          </li>
        ))}
      </List>
    </Panel>
  );
}
