import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TagSearch } from '../../../../features/search/TagSearch';
import { renderWithProviders } from '../../support/renderWithProviders';
import { router } from '../../support/router';

const input = () => screen.getByLabelText('Add a tag to search');

describe('TagSearch', () => {
  it('adds tags on Enter and counts them as "n tag" / "n tags"', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'cats{Enter}');
    expect(input()).toHaveValue('');
    expect(screen.getByText('1 tag')).toBeInTheDocument();
    await user.type(input(), 'dogs{Enter}');
    expect(screen.getByText('2 tags')).toBeInTheDocument();
  });

  it('shows "Remove all tags" only from 2 tags', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'cats{Enter}');
    expect(screen.queryByRole('button', { name: 'Remove all tags' })).not.toBeInTheDocument();
    await user.type(input(), 'dogs{Enter}');
    await user.click(screen.getByRole('button', { name: 'Remove all tags' }));
    expect(screen.queryByText(/tags?$/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove tag/ })).not.toBeInTheDocument();
  });

  it('goes to /tagged/{tag1,tag2} on Search', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'cats{Enter}');
    await user.type(input(), 'dogs{Enter}');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.push).toHaveBeenCalledWith('/tagged/cats,dogs');
  });

  it('does not search without a tag', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.push).not.toHaveBeenCalled();
  });
});

describe('TagSearch panel', () => {
  it('shows the tag list only while the search is in use', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <TagSearch />
        <button type="button">Elsewhere</button>
      </>,
    );
    await user.type(input(), 'cats{Enter}');
    expect(screen.getByText('1 tag')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByText('1 tag')).not.toBeInTheDocument();
    await user.click(input());
    expect(screen.getByText('1 tag')).toBeInTheDocument();
  });
});

describe('TagSearch chips', () => {
  it('removes one tag and keeps focus in the search', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'cats{Enter}');
    await user.type(input(), 'dogs{Enter}');
    await user.click(screen.getByRole('button', { name: 'Remove tag cats' }));
    expect(screen.getByText('1 tag')).toBeInTheDocument();
    expect(input()).toHaveFocus();
  });
});
