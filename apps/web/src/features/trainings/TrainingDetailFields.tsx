import { NumberInput, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { pickerProps } from './shared';

type DetailField = 'name' | 'start_date' | 'end_date' | 'total_training_day' | 'number_of_participants' | 'description';

/**
 * A training's details as Create Training and the Edit form both ask them: name, dates, days,
 * participants, description. `input` is the form's getInputProps for a field; `pick` the date
 * pickers' extras of a new training (placeholder, earliest dates, clearable).
 */
export function TrainingDetailFields({
  input,
  pick,
}: {
  input: (field: DetailField) => object;
  pick?: { startMin: Date | string; endMin: Date | string };
}) {
  const picker = (min: Date | string | undefined) =>
    pick ? { placeholder: 'Pick date and time', minDate: min, clearable: true } : {};
  return (
    <>
      <TextInput label="Name" withAsterisk {...input('name')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DateTimePicker
          label="Start Date"
          {...pickerProps('Start Date')}
          withAsterisk
          {...picker(pick?.startMin)}
          valueFormat="DD MMM YYYY hh:mm A"
          leftSection={<IconCalendar size={16} aria-hidden />}
          {...input('start_date')}
        />
        <DateTimePicker
          label="End Date"
          {...pickerProps('End Date')}
          withAsterisk
          {...picker(pick?.endMin)}
          valueFormat="DD MMM YYYY hh:mm A"
          leftSection={<IconCalendar size={16} aria-hidden />}
          {...input('end_date')}
        />
        <NumberInput
          label="Total Training Day"
          withAsterisk
          min={1}
          allowDecimal={false}
          {...input('total_training_day')}
        />
        <NumberInput
          label="Number Of Participants"
          withAsterisk
          min={1}
          allowDecimal={false}
          {...input('number_of_participants')}
        />
      </SimpleGrid>
      <Textarea label="Description" withAsterisk autosize minRows={3} {...input('description')} />
    </>
  );
}
