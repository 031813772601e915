import styled from 'styled-components';
import { Spinner } from '../ui/Spinner';

const Wrap = styled.div`
  display: flex;
  justify-content: center;
  padding: 80px 16px;
  color: ${({ theme }) => theme.color.textMuted};
`;

/** Shown while the session is looked up, before a private page may render. */
export function PageLoading() {
  return (
    <Wrap role="status">
      <Spinner $size={28} />
      <span className="visually-hidden">Loading</span>
    </Wrap>
  );
}
