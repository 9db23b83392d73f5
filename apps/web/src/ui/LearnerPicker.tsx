import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { tenantLearnerRow } from '@trainlab/contract';
import { useState } from 'react';
import type { z } from 'zod';
import { errorText } from '../api/client';
import { useApiQuery } from '../api/use-api';

export type TenantLearner = z.infer<typeof tenantLearnerRow>;

const labelOf = (l: TenantLearner) => `${l.first_name} ${l.last_name} (${l.email})`;

/**
 * Finds one of the caller's own tenant's learners (searched on the server, a page at a time) and
 * hands the person to the form, so a manager need not retype someone who already has an account.
 * The form's own fields stay editable: typing a new person is still the other way.
 */
export function LearnerPicker({ onPick }: { onPick: (learner: TenantLearner) => void }) {
  const [search, setSearch] = useState('');
  const [value, setValue] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const q = useApiQuery('get-tenant-learners', {
    search: debounced,
    per_page: 20,
  });
  const list = q.data?.list ?? [];
  return (
    <Select
      label="Pick an existing learner"
      description="Search your learners by name, e-mail or mobile to fill the form, or type a new person below."
      placeholder="Search…"
      leftSection={<IconSearch size={16} aria-hidden />}
      searchable
      clearable
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      // the server has already searched: show its page as it is
      filter={({ options }) => options}
      data={list.map((l) => ({ value: String(l.id), label: labelOf(l) }))}
      nothingFoundMessage={q.isLoading ? 'Loading…' : 'No learner found'}
      error={q.error ? errorText(q.error) : undefined}
      onChange={(v) => {
        setValue(v);
        const learner = list.find((l) => String(l.id) === v);
        if (learner) onPick(learner);
      }}
    />
  );
}
