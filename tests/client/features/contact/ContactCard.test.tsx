import { screen } from '@testing-library/react';
import { ContactCard } from '../../../../features/contact';
import { renderWithProviders } from '../../support/renderWithProviders';

describe('ContactCard', () => {
  it('points at the Report buttons instead of asking for pasted links (issue 68, item 22)', () => {
    renderWithProviders(<ContactCard initial={{ name: 'Posts', contactEmail: 'team@example.com' } as never} />);
    expect(screen.getByText(/use the Report button beside it/)).toBeInTheDocument();
    expect(screen.queryByText(/paste its link/)).toBeNull();
  });
});
