import { Group, NumberInput, Pagination, SegmentedControl, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { CERTIFICATION_LEVELS, CERTIFICATION_TYPE_FILTERS, type Paged } from '@trainlab/contract';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { usePagedQuery } from '../../api/use-paged-query';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { CertificationCard, CourseCard } from './cards';

const PER_PAGE = 12;

function useDebounced(value: string, ms = 300) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return v;
}

function Pager({ total, page, setPage }: { total: number | undefined; page: number; setPage: (p: number) => void }) {
  const pages = Math.max(1, Math.ceil((total ?? 0) / PER_PAGE));
  if (pages < 2) return null;
  return (
    <Group justify="center">
      <Pagination total={pages} value={page} onChange={setPage} aria-label="Pages" />
    </Group>
  );
}

function Results<T>({
  q,
  render,
}: {
  q: { isLoading: boolean; error: unknown; data?: Paged<T> };
  render: (row: T) => React.ReactNode;
}) {
  if (q.isLoading) return <Loading />;
  if (q.error) return <ErrorAlert message={errorText(q.error)} />;
  if (!q.data?.list.length) return <EmptyState />;
  return <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, lg: 4 }}>{q.data.list.map(render)}</SimpleGrid>;
}

/** /courses: the public paid courses of every tenant, searchable, price filter, paged on the server. */
export function CoursesPage() {
  const [search, setSearch] = useState('');
  const [maxPrice, setMaxPrice] = useState<number | ''>('');
  const debounced = useDebounced(search);
  const { list, query: q } = usePagedQuery(
    'search-by-courses',
    { ...(maxPrice !== '' ? { max_price: maxPrice } : {}) },
    { per_page: PER_PAGE },
  );
  useEffect(() => {
    if (debounced !== list.search) list.setSearch(debounced);
  }, [debounced, list]);
  return (
    <Stack>
      <PageHeader title="Courses" description="Recorded courses from our learning providers." />
      <Group align="flex-end">
        <TextInput
          label="Search"
          placeholder="Course name"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <NumberInput
          label="Max price (₹)"
          min={0}
          value={maxPrice}
          onChange={(v) => setMaxPrice(v === '' ? '' : Number(v))}
        />
        <Select
          label="Sort by"
          data={[
            { value: '', label: 'Trending' },
            { value: 'amount', label: 'Price: low to high' },
            { value: '-amount', label: 'Price: high to low' },
            { value: 'name', label: 'Name' },
          ]}
          value={list.sort ?? ''}
          onChange={(v) => list.setSort(v || undefined)}
          allowDeselect={false}
        />
      </Group>
      <Results q={q} render={(c) => <CourseCard key={c.id} course={c} />} />
      <Pager total={q.data?.total} page={list.page} setPage={list.setPage} />
    </Stack>
  );
}

/** /certifications: type AWS (default), Google, Microsoft or All; level; max price; search; paged. */
export function CertificationsPage() {
  const [params, setParams] = useSearchParams();
  const type = params.get('type') ?? 'AWS';
  const level = params.get('level') ?? '';
  const [search, setSearch] = useState('');
  const [maxPrice, setMaxPrice] = useState<number | ''>('');
  const debounced = useDebounced(search);
  const { list, query: q } = usePagedQuery(
    'search-by-certifications',
    { certification_type: type, ...(level ? { level } : {}), ...(maxPrice !== '' ? { max_price: maxPrice } : {}) },
    { per_page: PER_PAGE },
  );
  useEffect(() => {
    if (debounced !== list.search) list.setSearch(debounced);
  }, [debounced, list]);
  const setParam = (name: string, value: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete('page');
      return next;
    });
  return (
    <Stack>
      <PageHeader title="Certifications" description="Exam preparation for cloud certifications." />
      <SegmentedControl
        aria-label="Certification type"
        data={[...CERTIFICATION_TYPE_FILTERS]}
        value={type}
        onChange={(v) => setParam('type', v)}
        w="fit-content"
      />
      <Group align="flex-end">
        <TextInput
          label="Search"
          placeholder="Name or product"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <Select
          label="Level"
          data={[{ value: '', label: 'All levels' }, ...CERTIFICATION_LEVELS.map((l) => ({ value: l, label: l }))]}
          value={level}
          onChange={(v) => setParam('level', v ?? '')}
          allowDeselect={false}
        />
        <NumberInput
          label="Max price (₹)"
          min={0}
          value={maxPrice}
          onChange={(v) => setMaxPrice(v === '' ? '' : Number(v))}
        />
      </Group>
      <Results q={q} render={(c) => <CertificationCard key={c.id} cert={c} />} />
      <Pager total={q.data?.total} page={list.page} setPage={list.setPage} />
    </Stack>
  );
}
