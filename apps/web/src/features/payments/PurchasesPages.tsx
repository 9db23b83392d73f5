import { Anchor, Badge, Button, Stack, Text } from '@mantine/core';
import type { PurchaseRow } from '@trainlab/contract';
import { Link } from 'react-router';
import { usePagedQuery } from '../../api/use-paged-query';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';
import { certificationLink, inr } from '../catalog/cards';
import { PaymentsTable } from './PaymentsTable';
import { downloadReceipt } from './payment-status';

/** What to do with a purchase: learn the course, or book the certification's exam. */
function NextStep({ p }: { p: PurchaseRow }) {
  if (p.kind === 'course') {
    return p.course_slug ? (
      <Button component={Link} to={`/course/${p.course_slug}`} size="xs" variant="light">
        Open the course
      </Button>
    ) : (
      <Text size="sm" c="dimmed">
        The course is no longer offered.
      </Text>
    );
  }
  return p.exam_link ? (
    <Button component="a" href={p.exam_link} target="_blank" rel="noreferrer" size="xs" variant="light">
      Book the exam (opens in a new tab)
    </Button>
  ) : (
    <Anchor component={Link} to={certificationLink(p.ref_id)} size="sm">
      See the certification
    </Anchor>
  );
}

/** /my-purchases: what the signed-in account bought, when, its receipt and what to do next (issue 32). */
export function MyPurchasesPage() {
  const { list, query: q } = usePagedQuery('my-purchases', {}, { sort: '-bought_at' });
  const columns: DataTableColumn<PurchaseRow>[] = [
    {
      accessor: 'name',
      title: 'Item',
      sortable: true,
      render: (p) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {p.name}
          </Text>
          <Badge variant="light" color={p.kind === 'course' ? 'blue' : 'grape'} w="fit-content">
            {p.kind === 'course' ? 'Course' : 'Certification'}
          </Badge>
        </Stack>
      ),
    },
    {
      accessor: 'bought_at',
      title: 'Bought on',
      sortable: true,
      render: (p) => new Date(p.bought_at).toLocaleDateString(),
    },
    { accessor: 'amount', title: 'Paid', sortable: true, textAlign: 'right', render: (p) => inr(p.amount) },
    {
      accessor: 'receipt_no',
      title: 'Receipt',
      render: (p) => (
        <Button
          size="xs"
          variant="subtle"
          onClick={() => downloadReceipt({ id: p.payment_id, receipt_no: p.receipt_no })}
          aria-label={`Download receipt ${p.receipt_no}`}
        >
          {p.receipt_no}
        </Button>
      ),
    },
    { accessor: 'actions', title: 'Next step', render: (p) => <NextStep p={p} /> },
  ];
  const nothingYet = !q.isLoading && !q.error && q.data?.total === 0 && !list.search;
  return (
    <Stack>
      <PageHeader title="My purchases" description="Courses and certifications you bought, with their receipts." />
      {nothingYet ? (
        <EmptyState
          message="You have not bought anything yet."
          hint={
            <Button component={Link} to="/courses" variant="light" size="xs">
              Browse the catalogue
            </Button>
          }
        />
      ) : (
        <DataTable
          label="My purchases"
          records={q.data?.list}
          columns={columns}
          loading={q.isLoading}
          error={q.error}
          serial={false}
          paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
        />
      )}
    </Stack>
  );
}

/** /my-payments: every payment of the signed-in account, failed and pending ones too, with receipts. */
export function MyPaymentsPage() {
  const { list, query: q } = usePagedQuery('my-payments', {}, { sort: '-created_at' });
  return (
    <Stack>
      <PageHeader
        title="Payments"
        description={
          <>
            Every payment you made or tried. What you bought is under{' '}
            <Anchor component={Link} to="/my-purchases" size="sm">
              My purchases
            </Anchor>
            .
          </>
        }
      />
      <PaymentsTable
        records={q.data?.list}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}
