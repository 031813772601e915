import { Skeleton } from '../../../components/ui/Skeleton';
import { PeopleGrid } from '../../people';

/** Four grey cards while a followers or following list (or its code) is on its way. */
export function ConnectionSkeleton() {
  return (
    <PeopleGrid aria-hidden="true">
      {[0, 1, 2, 3].map((i) => (
        <li key={i}>
          <Skeleton $h="66px" />
        </li>
      ))}
    </PeopleGrid>
  );
}
