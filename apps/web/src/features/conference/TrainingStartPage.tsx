import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';

/** /training/start/{id}: the training by its base64 id → its conference page. */
export function TrainingStartPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    apiPost('get-meeting-link', { id })
      .then((link) => navigate(`/conference/${encodeURIComponent(link.slug)}`, { replace: true }))
      .catch((e) => setError(errorText(e)));
  }, [id, navigate]);
  return (
    <>
      <PageHeader title="Conference" />
      {error ? <ErrorAlert message={error} /> : <Loading />}
    </>
  );
}
