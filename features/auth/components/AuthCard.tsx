import type { ReactNode } from 'react';
import styled from 'styled-components';
import { appTheme } from '../../../themes';

const Wrap = styled.div`
  display: flex;
  justify-content: center;
  padding: 40px 16px 64px;
  @media (min-width: 768px) { padding-top: 72px; }
`;

const Card = styled.div`
  width: 100%;
  max-width: 420px;
  padding: 28px 24px;
  border-radius: ${appTheme.radius.lg};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  box-shadow: ${appTheme.shadow};
  h1 { font-size: 26px; letter-spacing: -0.02em; }
  > p { margin: 6px 0 22px; color: ${appTheme.color.textMuted}; }
  form { display: grid; gap: 16px; }
`;

const Footer = styled.p`
  margin: 20px 0 0 !important;
  text-align: center;
  font-size: 14px;
`;

export function AuthCard({
  title,
  lead,
  footer,
  children,
}: {
  title: string;
  lead: string;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <Wrap>
      <Card>
        <h1>{title}</h1>
        <p>{lead}</p>
        {children}
        <Footer>{footer}</Footer>
      </Card>
    </Wrap>
  );
}
