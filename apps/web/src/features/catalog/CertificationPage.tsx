import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { CatalogueCertification } from '@trainlab/contract';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { BackLink } from '../../ui/BackLink';
import { PageHeader } from '../../ui/PageHeader';
import { decodeId } from '../../ui/url-id';
import { BuyBox } from '../payments/BuyBox';
import { CatalogueItemFrame } from './CatalogueItemFrame';
import { inr, usd } from './cards';

function Facts({ c }: { c: CatalogueCertification }) {
  const rows: [string, string | null | undefined][] = [
    ['Certification type', c.certification_type],
    ['Product', c.product_name],
    ['Role', c.certification_role],
    ['Exam', c.exam_name],
    ['Level', c.level],
    ['Duration', c.duration],
    ['Recommended experience', String(c.recommended_experience)],
    ['Cost (USD)', usd(c.cost_doller)],
    ['Cost (INR)', inr(c.cost_inr)],
  ];
  return (
    <Table aria-label="Certification facts" layout="fixed">
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th scope="row" w="45%">
              {k}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{v ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * /certification-details/{base64 id}: a certification's own page (spec 01 §9: cost in dollars and in
 * rupees), with Add to cart beside it.
 */
export function CertificationDetailsPage() {
  const id = decodeId(useParams().id);
  const q = useApiQuery('get-certification-details', { id }, { enabled: id !== null });
  const c = q.data?.success;
  const gone = id === null || (q.error instanceof ApiError && q.error.status === 404);
  return (
    <Stack>
      <PageHeader
        title={c?.name ?? 'Certification details'}
        description={<BackLink to="/certifications">All certifications</BackLink>}
      />
      <CatalogueItemFrame
        gone={gone}
        query={q}
        missing="This certification is not in the catalogue."
        browse={{ to: '/certifications', label: 'Browse certifications' }}
        content={
          c
            ? {
                main: (
                  <Stack>
                    {c.certification_description ? (
                      <Text style={{ whiteSpace: 'pre-line' }}>{c.certification_description}</Text>
                    ) : null}
                    <Title order={2} size="h4">
                      About the exam
                    </Title>
                    <Facts c={c} />
                    {c.certification_prerequisites ? (
                      <>
                        <Title order={2} size="h4">
                          Before you start
                        </Title>
                        <Text style={{ whiteSpace: 'pre-line' }}>{c.certification_prerequisites}</Text>
                      </>
                    ) : null}
                    {c.exam_link ? (
                      <Group>
                        <Button component="a" href={c.exam_link} target="_blank" rel="noreferrer" variant="light">
                          Exam page (opens in a new tab)
                        </Button>
                      </Group>
                    ) : null}
                  </Stack>
                ),
                aside: (
                  <BuyBox
                    type="is_certificate"
                    id={c.id}
                    name={c.name}
                    price={inr(c.cost_inr)}
                    priceNote={`(${usd(c.cost_doller)})`}
                  />
                ),
              }
            : null
        }
      />
    </Stack>
  );
}
